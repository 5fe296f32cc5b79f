// The C API's widgets (include/ImGuiShim.h, "widgets"), each recorded by
// the layout probe (ShimLayout.cpp) with where its text lands.
#include "ImGuiShim.h"
#include "ShimProbe.h"
#include <cstring>
#include <string>

extern "C" {

// Multi-line text: each line is probed as its own text item.
static void probe_lines(const char *text) {
    if (!shim::probeOn()) return;
    const ImRect r = GImGui->LastItemData.Rect;
    const float lh = ImGui::GetTextLineHeight();
    ImGuiWindow *w = GImGui->CurrentWindow;
    const float wrap = w->DC.TextWrapPos;
    float y = r.Min.y;
    const char *s = text;
    const char *end = text + strlen(text);
    while (s < end) {
        const char *nl = (const char *)memchr(s, '\n', end - s);
        const char *line_end = nl ? nl : end;
        // Wrapped text: the font breaks the line where ImGui does.
        const char *cut = line_end;
        if (wrap >= 0.0f) {
            const float width = ImMax(ImGui::CalcWrapWidthForPos(r.Min, wrap), 1.0f);
            cut = ImGui::GetFont()->CalcWordWrapPositionA(1.0f, s, line_end, width);
            if (cut == s) cut = s + 1;
        }
        const float tw = ImGui::CalcTextSize(s, cut, false).x;
        const ImRect clip = w->InnerClipRect;  // text lines are in the content (menus use ig_menu_item)
        shim::probeRects(shim::ProbeText, std::string(s, cut).c_str(), ImRect(r.Min.x, y, r.Min.x + tw, y + lh),
                         ImRect(r.Min.x, y, r.Min.x + tw, y + lh), ImRect(clip.Min.x, y, clip.Max.x, y + lh));
        y += lh;
        s = cut;
        if (s < line_end) {  // a wrap: blanks after it, and a line break right after them, are skipped
            while (s < line_end && *s == ' ') s++;
            if (s == line_end && nl) s++;
            continue;
        }
        s = line_end + 1;
    }
}
void ig_text(const char *text) { ImGui::TextUnformatted(text); probe_lines(text); }
void ig_text_colored(float r, float g, float b, float a, const char *text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(r, g, b, a)); ImGui::TextUnformatted(text); ImGui::PopStyleColor();
    probe_lines(text);
}
void ig_text_disabled(const char *text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]); ImGui::TextUnformatted(text); ImGui::PopStyleColor();
    probe_lines(text);
}
void ig_text_wrapped(const char *text) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text);
    probe_lines(text);
    ImGui::PopTextWrapPos();
}
void ig_label_text(const char *label, const char *text) { ImGui::LabelText(label, "%s", text); }
bool ig_button(const char *label, float w, float h) {
    const bool p = ImGui::Button(label, ImVec2(w, h));
    shim::probeItem(shim::ProbeButton, label);
    return p;
}
bool ig_small_button(const char *label) {
    const bool p = ImGui::SmallButton(label);
    shim::probeItem(shim::ProbeButton, label);
    return p;
}
bool ig_checkbox(const char *label, bool *v) {
    const bool p = ImGui::Checkbox(label, v);
    shim::probeItem(shim::ProbeCheck, label);
    return p;
}
bool ig_radio_button(const char *label, bool active) {
    const bool p = ImGui::RadioButton(label, active);
    shim::probeItem(shim::ProbeCheck, label);
    return p;
}
// A slider's value as it shows it (the format applied to the value).
static void probe_slider(ImGuiDataType type, const void *v, const char *format) {
    if (!shim::probeOn()) return;
    char buf[128];
    ImGui::DataTypeFormatString(buf, sizeof buf, type, v, format);
    shim::probeItem(shim::ProbeSlider, buf, buf + strlen(buf));
}
bool ig_slider_float(const char *label, float *v, float min, float max, const char *format, int flags) {
    const bool c = ImGui::SliderFloat(label, v, min, max, format, flags);
    probe_slider(ImGuiDataType_Float, v, format);
    return c;
}
bool ig_slider_double(const char *label, double *v, double min, double max, const char *format, int flags) {
    const bool c = ImGui::SliderScalar(label, ImGuiDataType_Double, v, &min, &max, format, flags);
    probe_slider(ImGuiDataType_Double, v, format);
    return c;
}
bool ig_slider_int(const char *label, int *v, int min, int max, const char *format, int flags) {
    const bool c = ImGui::SliderInt(label, v, min, max, format, flags);
    probe_slider(ImGuiDataType_S32, v, format);
    return c;
}
bool ig_input_text(const char *label, char *buf, int buf_size, int flags) {
    const bool c = ImGui::InputText(label, buf, (size_t)buf_size, flags);
    shim::probeItem(shim::ProbeInput, nullptr);
    return c;
}
bool ig_input_text_with_hint(const char *label, const char *hint, char *buf, int buf_size, int flags) {
    const bool c = ImGui::InputTextWithHint(label, hint, buf, (size_t)buf_size, flags);
    shim::probeItem(shim::ProbeInput, nullptr);
    return c;
}
bool ig_input_double(const char *label, double *v, const char *format, int flags) {
    const bool c = ImGui::InputDouble(label, v, 0.0, 0.0, format, flags);
    shim::probeItem(shim::ProbeInput, nullptr);
    return c;
}
bool ig_selectable(const char *label, bool selected, int flags, float w, float h) {
    const bool p = ImGui::Selectable(label, selected, flags, ImVec2(w, h));
    shim::probeItem(shim::ProbeSelectable, label);
    return p;
}
// The combo's frame is measured before BeginCombo (an open combo's popup becomes the last item).
bool ig_begin_combo(const char *label, const char *preview, int flags) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::CalcItemWidth(), h = ImGui::GetFrameHeight();
    const ImGuiWindow *window = GImGui->CurrentWindow;
    const bool open = ImGui::BeginCombo(label, preview, flags);
    if (shim::probeOn() && !(window->RootWindow->Flags & (ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip))) {
        const ImGuiStyle &st = ImGui::GetStyle();
        const float tw = preview ? ImGui::CalcTextSize(preview).x : 0.0f;
        const ImRect item(p.x, p.y, p.x + w, p.y + h);
        const ImRect box(p.x + st.FramePadding.x, p.y, p.x + w - h, p.y + h);
        // Recorded in the window that holds the combo, not in its popup.
        ImGuiWindow *saved = GImGui->CurrentWindow;
        GImGui->CurrentWindow = const_cast<ImGuiWindow *>(window);
        shim::probeRects(shim::ProbeCombo, preview, item, ImRect(box.Min.x, p.y, box.Min.x + tw, p.y + h), box);
        GImGui->CurrentWindow = saved;
    }
    return open;
}
void ig_end_combo(void) { ImGui::EndCombo(); }
bool ig_color_edit3(const char *label, float *rgb, int flags) {
    const bool c = ImGui::ColorEdit3(label, rgb, flags);
    shim::probeItem(shim::ProbeOther, nullptr);
    return c;
}
bool ig_collapsing_header(const char *label, int flags) {
    const bool open = ImGui::CollapsingHeader(label, flags);
    shim::probeItem(shim::ProbeHeader, label);
    return open;
}
bool ig_tree_node(const char *label) { return ImGui::TreeNode(label); }
void ig_tree_pop(void) { ImGui::TreePop(); }
bool ig_begin_tab_bar(const char *id, int flags) { return ImGui::BeginTabBar(id, flags); }
void ig_end_tab_bar(void) { ImGui::EndTabBar(); }
bool ig_begin_tab_item(const char *label, bool *open, int flags) {
    const bool shown = ImGui::BeginTabItem(label, open, flags);
    shim::probeItem(shim::ProbeTab, label);
    return shown;
}
void ig_end_tab_item(void) { ImGui::EndTabItem(); }
void ig_progress_bar(float fraction, float w, float h, const char *overlay) { ImGui::ProgressBar(fraction, ImVec2(w, h), overlay); }
void ig_image(unsigned int gl_texture, float w, float h) {
    ImGui::Image((ImTextureID)(intptr_t)gl_texture, ImVec2(w, h));
    shim::probeItem(shim::ProbeOther, nullptr);
}
bool ig_begin_main_menu_bar(void) { return ImGui::BeginMainMenuBar(); }
void ig_end_main_menu_bar(void) { ImGui::EndMainMenuBar(); }
bool ig_begin_menu(const char *label, bool enabled) {
    // Measured before the menu's popup begins (it becomes the last item).
    ImGuiWindow *window = GImGui->CurrentWindow;
    const bool open = ImGui::BeginMenu(label, enabled);
    if (shim::probeOn()) {
        ImGuiWindow *saved = GImGui->CurrentWindow;
        GImGui->CurrentWindow = window;
        if (!open) shim::probeItem(shim::ProbeMenu, label);
        GImGui->CurrentWindow = saved;
    }
    return open;
}
void ig_end_menu(void) { ImGui::EndMenu(); }
bool ig_menu_item(const char *label, const char *shortcut, bool selected, bool enabled) { return ImGui::MenuItem(label, shortcut, selected, enabled); }

}  // extern "C"
