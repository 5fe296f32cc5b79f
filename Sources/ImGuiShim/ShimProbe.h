// Private to the shim: the layout probe's recording calls (ShimLayout.cpp),
// made by the widget wrappers of ImGuiShim.cpp right after each widget.
#pragma once
#include <imgui.h>
#include <imgui_internal.h>

namespace shim {

/// What an item is, for the probe (mirrored in ImGuiShim.h's IG_PROBE_* values).
enum ProbeKind {
    ProbeText = 0,      // a line of text (box: the window's visible width)
    ProbeButton = 1,    // text centred in a frame (box: the frame less its padding)
    ProbeCheck = 2,     // check box or radio button: text after the square (box: the window's visible width)
    ProbeSlider = 3,    // the value centred in the frame (box: the frame)
    ProbeSelectable = 4,// a row: text from its left edge (box: the row)
    ProbeCombo = 5,     // the preview after the padding (box: the frame less the arrow)
    ProbeHeader = 6,    // a section header: text after the arrow (box: the header, visible part)
    ProbeMenu = 7,      // a menu's name in the menu bar, or a menu item
    ProbeInput = 8,     // a text field (its text scrolls inside: no text check)
    ProbeTitle = 9,     // a window's title (box: the title bar less its buttons)
    ProbeDrawnText = 10,// text drawn by a panel at a place it chose (box: given)
    ProbeTab = 11,
    ProbeOther = 12,    // an item without text (image, colour swatch, lock glyph, meter)
};

/// Whether the probe records this frame (off unless the app reports its layout).
bool probeOn();
/// Records the last item, its visible text `text` (nullptr: none) at the text position the
/// widget kind implies, in the current window.
void probeItem(ProbeKind kind, const char *text, const char *textEnd = nullptr);
/// Records an item whose rectangles the caller computed.
void probeRects(ProbeKind kind, const char *text, const ImRect &item, const ImRect &textRect, const ImRect &box);
/// The current window's title, checked against its title bar.
void probeTitle(const char *name, bool hasClose);
/// Forgets the last frame's items (at NewFrame).
void probeNewFrame();

}  // namespace shim
