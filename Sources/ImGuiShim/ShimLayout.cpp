// The layout probe (what every widget drawn through the shim occupies and
// where its text lands), the windows on screen, keyboard focus moves (menu
// bar, panels), the style from a theme, and the lock glyph.
#include "ImGuiShim.h"
#include "ShimProbe.h"
#include <string>
#include <vector>

namespace {

struct ProbeRecord {
    std::string window, text;
    int kind;
    ImRect item, textRect, box, clip;
    bool visible;
};

bool enabled = false;
std::vector<ProbeRecord> records;
std::vector<std::string> windowNames;
std::vector<ImRect> windowRects;

// What of the current window is visible: its content area, or its menu bar while items go there.
ImRect visibleArea(ImGuiWindow *w) {
    if (w->DC.NavLayerCurrent == ImGuiNavLayer_Menu) {
        ImRect bar = w->MenuBarRect();
        bar.ClipWith(w->OuterRectClipped);
        return bar;
    }
    return w->InnerClipRect;
}

// Skipped: tooltips, popups and menus (transient, drawn over the panels on purpose).
ImGuiWindow *probedWindow() {
    ImGuiContext &g = *GImGui;
    ImGuiWindow *w = g.CurrentWindow;
    if (!w || (w->RootWindow->Flags & (ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip))) return nullptr;
    return w;
}

}  // namespace

namespace shim {

bool probeOn() { return enabled; }

void probeNewFrame() { records.clear(); }

void probeRects(ProbeKind kind, const char *text, const ImRect &item, const ImRect &textRect, const ImRect &box) {
    if (!enabled) return;
    ImGuiWindow *w = probedWindow();
    if (!w) return;
    const ImRect clip = visibleArea(w);
    bool visible = item.GetWidth() > 0 && item.GetHeight() > 0 && item.Min.y >= clip.Min.y - 0.5f && item.Max.y <= clip.Max.y + 0.5f;
    std::string shown = text ? std::string(text, ImGui::FindRenderedTextEnd(text)) : std::string();
    records.push_back({w->RootWindow->Name, shown, (int)kind, item, textRect, box, clip, visible});
}

void probeItem(ProbeKind kind, const char *text, const char *textEnd) {
    if (!enabled || !probedWindow()) return;
    ImGuiContext &g = *GImGui;
    ImGuiWindow *w = g.CurrentWindow;
    const ImGuiStyle &st = g.Style;
    const ImRect item = g.LastItemData.Rect, clip = visibleArea(w);
    const char *end = textEnd ? textEnd : (text ? ImGui::FindRenderedTextEnd(text) : nullptr);
    const float tw = text ? ImGui::CalcTextSize(text, end, false).x : 0.0f;
    ImRect box(clip.Min.x, item.Min.y, clip.Max.x, item.Max.y), t(item.Min.x, item.Min.y, item.Min.x + tw, item.Max.y);
    switch (kind) {
    case ProbeButton:
    case ProbeSlider: {
        const float pad = kind == ProbeButton ? st.FramePadding.x : 0.0f;
        box = ImRect(item.Min.x + pad, item.Min.y, item.Max.x - pad, item.Max.y);
        const float x0 = ImMax(box.Min.x, box.Min.x + (box.GetWidth() - tw) * 0.5f);
        t = ImRect(x0, item.Min.y, x0 + tw, item.Max.y);
        break;
    }
    case ProbeCheck: {
        const float x0 = item.Min.x + ImGui::GetFrameHeight() + st.ItemInnerSpacing.x;
        t = ImRect(x0, item.Min.y, x0 + tw, item.Max.y);
        break;
    }
    case ProbeSelectable:
    case ProbeMenu:
        box = ImRect(item.Min.x, item.Min.y, ImMin(item.Max.x, clip.Max.x), item.Max.y);
        break;
    case ProbeHeader: {
        const float x0 = item.Min.x + g.FontSize + st.FramePadding.x * 3;
        t = ImRect(x0, item.Min.y, x0 + tw, item.Max.y);
        box = ImRect(x0, item.Min.y, ImMin(item.Max.x - st.FramePadding.x, clip.Max.x), item.Max.y);
        break;
    }
    case ProbeTab: {
        box = ImRect(item.Min.x + st.FramePadding.x, item.Min.y, item.Max.x - st.FramePadding.x, item.Max.y);
        t = ImRect(box.Min.x, item.Min.y, box.Min.x + tw, item.Max.y);
        break;
    }
    case ProbeInput:
    case ProbeOther:
        text = nullptr;
        t = box = item;
        break;
    default:
        break;
    }
    probeRects(kind, text, item, t, box);
}

void probeTitle(const char *name, bool hasClose) {
    if (!enabled) return;
    ImGuiContext &g = *GImGui;
    ImGuiWindow *w = g.CurrentWindow;
    if (!w || (w->Flags & (ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip))) return;
    const ImGuiStyle &st = g.Style;
    const ImRect bar = w->TitleBarRect();
    float left = st.FramePadding.x, right = st.FramePadding.x;
    if (!(w->Flags & ImGuiWindowFlags_NoCollapse) && st.WindowMenuButtonPosition != ImGuiDir_None) left += g.FontSize + st.ItemInnerSpacing.x;
    if (hasClose) right += g.FontSize + st.ItemInnerSpacing.x;
    const char *end = ImGui::FindRenderedTextEnd(name);
    const float tw = ImGui::CalcTextSize(name, end, false).x;
    const ImRect box(bar.Min.x + left, bar.Min.y, bar.Max.x - right, bar.Max.y);
    records.push_back({w->RootWindow->Name, std::string(name, end), (int)ProbeTitle, bar,
                       ImRect(box.Min.x, bar.Min.y, box.Min.x + tw, bar.Max.y), box, bar, true});
}

}  // namespace shim

extern "C" {

void ig_probe_enable(bool on) {
    enabled = on;
    records.clear();
}

int ig_probe_count(void) { return (int)records.size(); }

bool ig_probe_get(int i, IgProbeItem *out) {
    if (i < 0 || i >= (int)records.size()) return false;
    const ProbeRecord &r = records[i];
    out->window = r.window.c_str();
    out->text = r.text.c_str();
    out->kind = r.kind;
    out->visible = r.visible;
    const ImRect *rs[4] = {&r.item, &r.textRect, &r.box, &r.clip};
    float *dst[4] = {out->item, out->text_rect, out->box, out->clip};
    for (int k = 0; k < 4; k++) {
        dst[k][0] = rs[k]->Min.x; dst[k][1] = rs[k]->Min.y; dst[k][2] = rs[k]->Max.x; dst[k][3] = rs[k]->Max.y;
    }
    return true;
}

int ig_probe_windows(void) {
    ImGuiContext &g = *GImGui;
    windowNames.clear();
    windowRects.clear();
    for (ImGuiWindow *w : g.Windows) {
        if (!w->Active || w->Hidden || w->IsFallbackWindow) continue;
        if (w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) continue;
        windowNames.push_back(w->Name);
        windowRects.push_back(ImRect(w->Pos, ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y)));
    }
    return (int)windowNames.size();
}

const char *ig_probe_window(int i, float *xyxy) {
    if (i < 0 || i >= (int)windowNames.size()) return "";
    const ImRect &r = windowRects[i];
    xyxy[0] = r.Min.x; xyxy[1] = r.Min.y; xyxy[2] = r.Max.x; xyxy[3] = r.Max.y;
    return windowNames[i].c_str();
}

void ig_probe_text_in(float x, float y, unsigned int abgr, const char *text, float box_x0, float box_x1) {
    ImGui::GetWindowDrawList()->AddText(ImVec2(x, y), abgr, text);
    const ImVec2 s = ImGui::CalcTextSize(text);
    const ImRect t(x, y, x + s.x, y + s.y);
    shim::probeRects(shim::ProbeDrawnText, text, t, t, ImRect(box_x0, y, box_x1, y + s.y));
}

void ig_probe_item(int kind, const char *text) { shim::probeItem((shim::ProbeKind)kind, text); }

// Keyboard focus moves. The navigation layer is set after FocusWindow
// (which resets it to the main layer), then NavInitWindow asks for the
// first item of that layer next frame: it gets the highlight, nothing is
// activated.
static bool focusForKeyboard(ImGuiWindow *w, ImGuiNavLayer layer) {
    ImGuiContext &g = *GImGui;
    if (!w || !(w->Active || w->WasActive) || (w->Flags & ImGuiWindowFlags_NoNavInputs)) return false;
    ImGui::FocusWindow(w);
    g.NavLayer = layer;
    ImGui::NavInitWindow(w, true);
    g.NavDisableHighlight = false;
    g.NavDisableMouseHover = true;
    return true;
}

bool ig_focus_main_menu_bar(void) { return focusForKeyboard(ImGui::FindWindowByName("##MainMenuBar"), ImGuiNavLayer_Menu); }

bool ig_focus_window_nav(const char *name) { return focusForKeyboard(ImGui::FindWindowByName(name), ImGuiNavLayer_Main); }

unsigned int ig_get_item_id(void) { return GImGui->LastItemData.ID; }
float ig_work_max_x(void) { return GImGui->CurrentWindow->WorkRect.Max.x; }
const char *ig_current_window_name(void) { return GImGui->CurrentWindow ? GImGui->CurrentWindow->Name : ""; }
double ig_get_time(void) { return ImGui::GetTime(); }
int ig_get_frame_count(void) { return ImGui::GetFrameCount(); }

int ig_style_color_count(void) { return ImGuiCol_COUNT; }

void ig_style_set(const float *rgba, int count, const float *m, float scale) {
    ImGuiStyle s;
    ImGui::StyleColorsDark(&s);
    for (int i = 0; i < count && i < ImGuiCol_COUNT; i++) s.Colors[i] = ImVec4(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3]);
    s.FramePadding = ImVec2(m[0], m[1]);
    s.ItemSpacing = ImVec2(m[2], m[3]);
    s.ItemInnerSpacing = ImVec2(m[4], m[4]);
    s.GrabMinSize = m[5];
    s.ScrollbarSize = m[6];
    s.FrameRounding = s.GrabRounding = s.ScrollbarRounding = s.TabRounding = m[7];
    s.WindowRounding = s.PopupRounding = s.ChildRounding = m[7] + 2;
    s.WindowBorderSize = s.PopupBorderSize = s.FrameBorderSize = 1;
    // The app sizes the panels (tiles); ImGui must not make one larger than its tile.
    s.WindowMinSize = ImVec2(16, 16);
    s.ScaleAllSizes(scale);
    ImGui::GetStyle() = s;
}

bool ig_lock_button(const char *id, bool locked, float size) {
    const bool pressed = ImGui::Button(id, ImVec2(size, size));
    const ImRect r = GImGui->LastItemData.Rect;
    ImDrawList *dl = ImGui::GetWindowDrawList();
    const ImU32 col = ImGui::GetColorU32(ImGuiCol_Text);
    const float s = r.GetWidth(), cx = (r.Min.x + r.Max.x) * 0.5f, line = ImMax(1.0f, s / 12.0f);
    const ImVec2 b0(r.Min.x + s * 0.24f, r.Min.y + s * 0.47f), b1(r.Max.x - s * 0.24f, r.Max.y - s * 0.18f);
    const float rad = s * 0.17f, lift = locked ? 0.0f : s * 0.12f, arcY = b0.y - s * 0.14f - lift;
    // The shackle: closed into the body, or lifted with its right leg out of it.
    dl->PathLineTo(ImVec2(cx - rad, b0.y));
    dl->PathLineTo(ImVec2(cx - rad, arcY));
    dl->PathArcTo(ImVec2(cx, arcY), rad, IM_PI, 2 * IM_PI, 10);
    dl->PathLineTo(ImVec2(cx + rad, locked ? b0.y : arcY + s * 0.06f));
    dl->PathStroke(col, 0, line * 1.4f);
    if (locked) dl->AddRectFilled(b0, b1, col, s * 0.05f);
    else dl->AddRect(b0, b1, col, s * 0.05f, 0, line);
    shim::probeItem(shim::ProbeOther, nullptr);
    return pressed;
}

}  // extern "C"
