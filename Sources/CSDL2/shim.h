#ifndef CSDL2_SHIM_H
#define CSDL2_SHIM_H
#include <SDL.h>
#define GL_GLEXT_PROTOTYPES 1
#include <SDL_opengl.h>
/// Macros Swift cannot import.
static inline int csdl2_windowpos_centered_display(int display) { return (int)SDL_WINDOWPOS_CENTERED_DISPLAY(display); }
static inline int csdl2_windowpos_undefined(void) { return (int)SDL_WINDOWPOS_UNDEFINED; }
static inline unsigned csdl2_button(int b) { return SDL_BUTTON(b); }
#endif
