#ifndef CSPEECHD_SHIM_H
#define CSPEECHD_SHIM_H
/* speech-dispatcher's client library (libspeechd): the desktop's speech service. */
#include <libspeechd.h>
#endif
