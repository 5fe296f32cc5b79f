#ifndef CPULSE_SHIM_H
#define CPULSE_SHIM_H
#include <pulse/pulseaudio.h>
#include <pulse/simple.h>
#include <pulse/error.h>

/// PA_SAMPLE_FLOAT32NE is a macro Swift cannot import.
static inline pa_sample_format_t cpulse_sample_float32ne(void) { return PA_SAMPLE_FLOAT32NE; }
/// PA_STREAM_IS_GOOD / PA_CONTEXT_IS_GOOD are macros.
static inline int cpulse_context_is_good(pa_context_state_t s) { return PA_CONTEXT_IS_GOOD(s); }
static inline int cpulse_stream_is_good(pa_stream_state_t s) { return PA_STREAM_IS_GOOD(s); }
#endif
