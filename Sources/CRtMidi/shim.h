#ifndef CRTMIDI_SHIM_H
#define CRTMIDI_SHIM_H
/* RtMidi is C++; this module only carries its include path and link flags
   (pkg-config `rtmidi`) to the MidiShim C++ target, whose own header is the
   C API Swift sees. Nothing is imported into Swift here (the C wrapper
   rtmidi_c.h is never used: its error text points into a destroyed
   exception in Debian 12's rtmidi 5.0). */
#endif
