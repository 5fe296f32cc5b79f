// Xlib, for one question SDL does not answer: the desktop's Xft.dpi (HiDPI scale on X11).
#include <X11/Xlib.h>
