#ifndef CFFTW_SHIM_H
#define CFFTW_SHIM_H
#include <fftw3.h>
/// FFTW_ESTIMATE is a macro expression; expose it as a function.
static inline unsigned cfftw_estimate(void) { return FFTW_ESTIMATE; }
#endif
