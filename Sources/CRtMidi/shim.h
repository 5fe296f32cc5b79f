#ifndef CRTMIDI_SHIM_H
#define CRTMIDI_SHIM_H
#include <stdbool.h>
#include <stddef.h>
#include <rtmidi_c.h>
#endif
