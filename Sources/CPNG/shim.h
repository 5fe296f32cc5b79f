#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H
#include <png.h>

/* Macros Swift cannot import, as inline functions. */
static inline png_uint_32 cpng_image_version(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 cpng_format_rgba(void) { return PNG_FORMAT_RGBA; }
static inline int cpng_image_failed(const png_image *image) { return PNG_IMAGE_FAILED(*image); }
#endif
