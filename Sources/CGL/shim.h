#ifndef CGL_SHIM_H
#define CGL_SHIM_H
/* OpenGL 4.3 core entry points (compute shaders, storage buffers, image
   load/store, timer queries) from Debian's libGL (glvnd): it exports every
   core function and dispatches to the current context, whether GLX or EGL
   made it. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#endif
