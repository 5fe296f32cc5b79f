#ifndef CLIBLO_SHIM_H
#define CLIBLO_SHIM_H
#include <lo/lo.h>

/* lo_arg is a union whose string member is a flexible char: Swift cannot
   read it, so these read one argument of a known type tag. */
static inline int32_t clo_arg_i(lo_arg *a) { return a->i; }
static inline float clo_arg_f(lo_arg *a) { return a->f; }
static inline double clo_arg_d(lo_arg *a) { return a->d; }
static inline int64_t clo_arg_h(lo_arg *a) { return a->h; }
static inline const char *clo_arg_s(lo_arg *a) { return &a->s; }
static inline lo_timetag clo_tt_immediate(void) { lo_timetag t = {0U, 1U}; return t; }
#endif
