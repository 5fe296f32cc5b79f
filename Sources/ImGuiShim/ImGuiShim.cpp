// The C API of include/ImGuiShim.h over Dear ImGui 1.86 and its SDL2/OpenGL3 backends.
#include "ImGuiShim.h"
#include "ShimProbe.h"
#include <imgui.h>
#include <imgui_internal.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <SDL.h>
#include <SDL_opengl.h>
#include <cfloat>
#include <cstdio>
#include <cstring>
#include <string>

// The pointer left the window (SDL_WINDOWEVENT_LEAVE): ImGui sees no pointer
// until it is back, so no item stays hovered and no tooltip stays up.
static bool pointerOutside = false;

extern "C" {

const char *imguishim_version(void) { return ImGui::GetVersion(); }
void ig_create_context(void) { ImGui::CreateContext(); ImGui::GetIO().IniFilename = nullptr; }
void ig_destroy_context(void) { ImGui::DestroyContext(); }
bool ig_has_context(void) { return ImGui::GetCurrentContext() != nullptr; }

void ig_setup_headless(float width, float height) {
    ImGuiIO &io = ImGui::GetIO();
    io.DisplaySize = ImVec2(width, height);
    io.IniFilename = nullptr;
    io.DeltaTime = 1.0f / 60.0f;
    // Same key map as the SDL2 backend: indices are SDL scancodes.
    io.KeyMap[ImGuiKey_Tab] = -1;  // Tab is the app's (see no_imgui_tab)
    io.KeyMap[ImGuiKey_LeftArrow] = SDL_SCANCODE_LEFT;
    io.KeyMap[ImGuiKey_RightArrow] = SDL_SCANCODE_RIGHT;
    io.KeyMap[ImGuiKey_UpArrow] = SDL_SCANCODE_UP;
    io.KeyMap[ImGuiKey_DownArrow] = SDL_SCANCODE_DOWN;
    io.KeyMap[ImGuiKey_PageUp] = SDL_SCANCODE_PAGEUP;
    io.KeyMap[ImGuiKey_PageDown] = SDL_SCANCODE_PAGEDOWN;
    io.KeyMap[ImGuiKey_Home] = SDL_SCANCODE_HOME;
    io.KeyMap[ImGuiKey_End] = SDL_SCANCODE_END;
    io.KeyMap[ImGuiKey_Insert] = SDL_SCANCODE_INSERT;
    io.KeyMap[ImGuiKey_Delete] = SDL_SCANCODE_DELETE;
    io.KeyMap[ImGuiKey_Backspace] = SDL_SCANCODE_BACKSPACE;
    io.KeyMap[ImGuiKey_Space] = SDL_SCANCODE_SPACE;
    io.KeyMap[ImGuiKey_Enter] = SDL_SCANCODE_RETURN;
    io.KeyMap[ImGuiKey_Escape] = SDL_SCANCODE_ESCAPE;
    io.KeyMap[ImGuiKey_KeyPadEnter] = SDL_SCANCODE_KP_ENTER;
    io.KeyMap[ImGuiKey_A] = SDL_SCANCODE_A;
    io.KeyMap[ImGuiKey_C] = SDL_SCANCODE_C;
    io.KeyMap[ImGuiKey_V] = SDL_SCANCODE_V;
    io.KeyMap[ImGuiKey_X] = SDL_SCANCODE_X;
    io.KeyMap[ImGuiKey_Y] = SDL_SCANCODE_Y;
    io.KeyMap[ImGuiKey_Z] = SDL_SCANCODE_Z;
}
void ig_set_display_size(float width, float height) { ImGui::GetIO().DisplaySize = ImVec2(width, height); }
void ig_get_display_size(float *width, float *height) {
    ImVec2 s = ImGui::GetIO().DisplaySize;
    *width = s.x;
    *height = s.y;
}
// Latin-1 plus the punctuation, arrows and maths signs the UI uses (… – ← → ≠ ≤ ≥ ▶ ●).
static const ImWchar kGlyphRanges[] = {
    0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x2195, 0x2260, 0x2265, 0x25A0, 0x25CF, 0,
};
bool ig_add_font_ttf(const char *path, float size_px) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;  // AddFontFromFileTTF asserts on a missing file
    fclose(f);
    return ImGui::GetIO().Fonts->AddFontFromFileTTF(path, size_px, nullptr, kGlyphRanges) != nullptr;
}
void ig_clear_fonts(void) { ImGui::GetIO().Fonts->Clear(); }
void ig_build_font_atlas(void) {
    unsigned char *pixels; int w, h;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
}
void ig_set_font_global_scale(float scale) { ImGui::GetIO().FontGlobalScale = scale; }
void ig_style_dark(float scale, float alpha) {
    ImGuiStyle fresh;
    ImGui::StyleColorsDark(&fresh);
    fresh.WindowRounding = 6; fresh.FrameRounding = 4; fresh.GrabRounding = 4;
    fresh.Colors[ImGuiCol_WindowBg].w = alpha;
    fresh.ScaleAllSizes(scale);
    ImGui::GetStyle() = fresh;
}
// Tab and Ctrl+Tab are the app's shortcuts (panels, the next panel). ImGui's
// own uses of Tab (focus tabbing, which activates a text field it lands on,
// and its Ctrl+Tab window list) are off: with SDL's modifier state read when
// the event is handled, a quick Ctrl+Tab reached ImGui as a plain Tab.
static void no_imgui_tab(void) { ImGui::GetIO().KeyMap[ImGuiKey_Tab] = -1; }
// ImGui toggles the focused window's own menu layer on a tap of Alt; the app
// moves the focus to the main menu bar instead (ig_focus_main_menu_bar).
static void no_imgui_alt_toggle(void) { GImGui->NavWindowingToggleLayer = false; }
bool ig_init_sdl_gl(void *sdl_window, void *gl_context, const char *glsl_version) {
    if (!ImGui_ImplSDL2_InitForOpenGL((SDL_Window *)sdl_window, gl_context)) return false;
    no_imgui_tab();
    return ImGui_ImplOpenGL3_Init(glsl_version);
}
void ig_shutdown_sdl_gl(void) { ImGui_ImplOpenGL3_Shutdown(); ImGui_ImplSDL2_Shutdown(); }
void ig_rebuild_fonts_gl(void) { ImGui_ImplOpenGL3_DestroyFontsTexture(); ImGui_ImplOpenGL3_CreateFontsTexture(); }
bool ig_process_sdl_event(const void *sdl_event) {
    const SDL_Event *e = (const SDL_Event *)sdl_event;
    if (e->type == SDL_WINDOWEVENT && e->window.event == SDL_WINDOWEVENT_LEAVE) pointerOutside = true;
    if (e->type == SDL_WINDOWEVENT && e->window.event == SDL_WINDOWEVENT_ENTER) pointerOutside = false;
    if (e->type == SDL_MOUSEMOTION) pointerOutside = false;
    return ImGui_ImplSDL2_ProcessEvent(e);
}
// The font atlas is sampled for every UI pixel (solid shapes use its white
// texel). Glyphs are rasterised at their on-screen size and placed on whole
// pixels, so nearest sampling shows the same picture and costs a software GL
// (llvmpipe) less per pixel (measured ~10 % of the editor's present cost).
static void use_nearest_font_sampling(void) {
    static ImTextureID done = 0;
    ImTextureID id = ImGui::GetIO().Fonts->TexID;
    if (!id || id == done) return;
    GLint last = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &last);
    glBindTexture(GL_TEXTURE_2D, (GLuint)(intptr_t)id);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, (GLuint)last);
    done = id;
}
void ig_new_frame_sdl_gl(void) {
    ImGui_ImplOpenGL3_NewFrame();
    use_nearest_font_sampling();
    ImGui_ImplSDL2_NewFrame();
    ImGuiIO &io = ImGui::GetIO();
    // A frame that stalled (a preset load, a busy machine) counts as at most
    // 0.1 s for the UI's clocks: otherwise a tapped arrow key whose press and
    // release land on both sides of the stall reads as held past ImGui's
    // repeat delay (0.275 s) and moves the focus twice.
    if (io.DeltaTime > 0.1f) io.DeltaTime = 0.1f;
    bool dragging = false;
    for (bool b : io.MouseDown) dragging = dragging || b;
    if (pointerOutside && !dragging) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    shim::probeNewFrame();
    ImGui::NewFrame();
    no_imgui_alt_toggle();
}
void ig_new_frame_headless(float delta_seconds) {
    ImGui::GetIO().DeltaTime = delta_seconds;
    shim::probeNewFrame();
    ImGui::NewFrame();
    no_imgui_alt_toggle();
}
void ig_render(void) { ImGui::Render(); }
void ig_render_gl(void) { ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData()); }
int ig_draw_vertex_count(void) { ImDrawData *d = ImGui::GetDrawData(); return d ? d->TotalVtxCount : 0; }

void ig_bring_current_window_to_front(void) { ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow()); }
int ig_window_display_index(const char *name) {
    ImGuiWindow *w = ImGui::FindWindowByName(name);
    if (!w) return -1;
    ImGuiContext &g = *ImGui::GetCurrentContext();
    for (int i = 0; i < g.Windows.Size; i++) if (g.Windows[i] == w) return i;
    return -1;
}

void ig_enable_keyboard_nav(bool on) {
    ImGuiIO &io = ImGui::GetIO();
    if (on) io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard; else io.ConfigFlags &= ~ImGuiConfigFlags_NavEnableKeyboard;
}
bool ig_nav_visible(void) {
    ImGuiContext &g = *ImGui::GetCurrentContext();
    return g.NavId != 0 && !g.NavDisableHighlight && g.NavWindow != nullptr;
}
bool ig_nav_rect(float *x0, float *y0, float *x1, float *y1) {
    ImGuiContext &g = *ImGui::GetCurrentContext();
    ImGuiWindow *w = g.NavWindow;
    if (!w || g.NavId == 0) return false;
    ImRect r = ImGui::WindowRectRelToAbs(w, w->NavRectRel[g.NavLayer]);
    *x0 = r.Min.x; *y0 = r.Min.y; *x1 = r.Max.x; *y1 = r.Max.y;
    return true;
}
const char *ig_nav_window_name(void) {
    ImGuiContext &g = *ImGui::GetCurrentContext();
    return g.NavWindow ? g.NavWindow->RootWindow->Name : "";
}
void ig_nav_move_request_cancel(void) { ImGui::NavMoveRequestCancel(); }
bool ig_is_nav_active(const char *label) {
    ImGuiContext &g = *ImGui::GetCurrentContext();
    return g.ActiveId != 0 && g.ActiveId == ImGui::GetID(label) && g.ActiveIdSource == ImGuiInputSource_Nav;
}
void ig_nav_suppress_tweak(void) {
    ImGuiIO &io = ImGui::GetIO();
    const int inputs[] = { ImGuiNavInput_DpadLeft, ImGuiNavInput_DpadRight, ImGuiNavInput_DpadUp, ImGuiNavInput_DpadDown,
                           ImGuiNavInput_KeyLeft_, ImGuiNavInput_KeyRight_, ImGuiNavInput_KeyUp_, ImGuiNavInput_KeyDown_,
                           ImGuiNavInput_LStickLeft, ImGuiNavInput_LStickRight, ImGuiNavInput_LStickUp, ImGuiNavInput_LStickDown };
    for (int n : inputs) { io.NavInputs[n] = 0.0f; io.NavInputsDownDuration[n] = -1.0f; }
}

float ig_style_item_spacing_x(void) { return ImGui::GetStyle().ItemSpacing.x; }
float ig_style_window_padding_x(void) { return ImGui::GetStyle().WindowPadding.x; }
float ig_style_frame_padding_x(void) { return ImGui::GetStyle().FramePadding.x; }
void ig_set_next_window_size_constraints(float min_w, float min_h, float max_w, float max_h) {
    ImGui::SetNextWindowSizeConstraints(ImVec2(min_w, min_h), ImVec2(max_w, max_h));
}

void ig_io_set_mouse_pos(float x, float y) { ImGui::GetIO().MousePos = ImVec2(x, y); }
void ig_io_set_mouse_button(int button, bool down) { if (button >= 0 && button < 5) ImGui::GetIO().MouseDown[button] = down; }
void ig_io_add_mouse_wheel(float v) { ImGui::GetIO().MouseWheel += v; }
void ig_io_set_key(int scancode, bool down) { if (scancode >= 0 && scancode < 512) ImGui::GetIO().KeysDown[scancode] = down; }
void ig_io_set_mods(bool ctrl, bool shift, bool alt) { ImGuiIO &io = ImGui::GetIO(); io.KeyCtrl = ctrl; io.KeyShift = shift; io.KeyAlt = alt; }
void ig_io_add_input_utf8(const char *text) { ImGui::GetIO().AddInputCharactersUTF8(text); }
bool ig_io_want_capture_keyboard(void) { return ImGui::GetIO().WantCaptureKeyboard; }
bool ig_io_want_capture_mouse(void) { return ImGui::GetIO().WantCaptureMouse; }
bool ig_io_want_text_input(void) { return ImGui::GetIO().WantTextInput; }
float ig_io_mouse_wheel(void) { return ImGui::GetIO().MouseWheel; }
bool ig_io_key_ctrl(void) { return ImGui::GetIO().KeyCtrl; }
bool ig_io_key_shift(void) { return ImGui::GetIO().KeyShift; }
bool ig_io_key_alt(void) { return ImGui::GetIO().KeyAlt; }
bool ig_is_key_pressed(int scancode, bool repeat) { return ImGui::IsKeyPressed(scancode, repeat); }
bool ig_is_key_down(int scancode) { return ImGui::IsKeyDown(scancode); }
bool ig_is_mouse_double_clicked(int button) { return ImGui::IsMouseDoubleClicked(button); }
bool ig_is_mouse_clicked(int button) { return ImGui::IsMouseClicked(button); }
void ig_get_mouse_pos(float *x, float *y) { ImVec2 p = ImGui::GetIO().MousePos; *x = p.x; *y = p.y; }
bool ig_is_any_item_active(void) { return ImGui::IsAnyItemActive(); }
bool ig_is_any_item_hovered(void) { return ImGui::IsAnyItemHovered(); }
float ig_framerate(void) { return ImGui::GetIO().Framerate; }

bool ig_begin(const char *name, bool *open, int flags) {
    const bool shown = ImGui::Begin(name, open, flags);
    if (shown) shim::probeTitle(name, open != nullptr);
    return shown;
}
void ig_end(void) { ImGui::End(); }
bool ig_begin_child(const char *id, float w, float h, bool border, int flags) { return ImGui::BeginChild(id, ImVec2(w, h), border, flags); }
void ig_end_child(void) { ImGui::EndChild(); }
void ig_set_next_window_pos(float x, float y, int cond, float px, float py) { ImGui::SetNextWindowPos(ImVec2(x, y), cond, ImVec2(px, py)); }
void ig_set_next_window_size(float w, float h, int cond) { ImGui::SetNextWindowSize(ImVec2(w, h), cond); }
void ig_set_next_window_bg_alpha(float alpha) { ImGui::SetNextWindowBgAlpha(alpha); }
void ig_set_next_window_collapsed(bool collapsed, int cond) { ImGui::SetNextWindowCollapsed(collapsed, cond); }
void ig_set_next_window_focus(void) { ImGui::SetNextWindowFocus(); }
void ig_same_line(float offset, float spacing) { ImGui::SameLine(offset, spacing); }
void ig_separator(void) { ImGui::Separator(); }
void ig_spacing(void) { ImGui::Spacing(); }
void ig_dummy(float w, float h) { ImGui::Dummy(ImVec2(w, h)); }
void ig_indent(float w) { ImGui::Indent(w); }
void ig_unindent(float w) { ImGui::Unindent(w); }
void ig_push_id_int(int id) { ImGui::PushID(id); }
void ig_push_id_str(const char *id) { ImGui::PushID(id); }
void ig_pop_id(void) { ImGui::PopID(); }
void ig_push_item_width(float w) { ImGui::PushItemWidth(w); }
void ig_pop_item_width(void) { ImGui::PopItemWidth(); }
void ig_set_next_item_width(float w) { ImGui::SetNextItemWidth(w); }
void ig_get_content_region_avail(float *w, float *h) { ImVec2 v = ImGui::GetContentRegionAvail(); *w = v.x; *h = v.y; }
void ig_get_cursor_screen_pos(float *x, float *y) { ImVec2 v = ImGui::GetCursorScreenPos(); *x = v.x; *y = v.y; }
void ig_get_window_pos(float *x, float *y) { ImVec2 v = ImGui::GetWindowPos(); *x = v.x; *y = v.y; }
void ig_get_window_size(float *w, float *h) { ImVec2 v = ImGui::GetWindowSize(); *w = v.x; *h = v.y; }
float ig_get_frame_height(void) { return ImGui::GetFrameHeight(); }
float ig_get_text_line_height(void) { return ImGui::GetTextLineHeight(); }
float ig_calc_text_width(const char *text) { return ImGui::CalcTextSize(text).x; }
void ig_set_scroll_here_y(float ratio) { ImGui::SetScrollHereY(ratio); }
float ig_get_scroll_y(void) { return ImGui::GetScrollY(); }
void ig_set_keyboard_focus_here(int offset) { ImGui::SetKeyboardFocusHere(offset); }

bool ig_is_item_hovered(int flags) { return ImGui::IsItemHovered(flags); }
bool ig_is_item_active(void) { return ImGui::IsItemActive(); }
bool ig_is_item_activated(void) { return ImGui::IsItemActivated(); }
bool ig_is_item_deactivated(void) { return ImGui::IsItemDeactivated(); }
bool ig_is_item_deactivated_after_edit(void) { return ImGui::IsItemDeactivatedAfterEdit(); }
bool ig_is_item_focused(void) { return ImGui::IsItemFocused(); }
bool ig_is_item_clicked(int button) { return ImGui::IsItemClicked(button); }
bool ig_is_item_edited(void) { return ImGui::IsItemEdited(); }
void ig_get_item_rect(float *x0, float *y0, float *x1, float *y1) {
    ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax(); *x0 = a.x; *y0 = a.y; *x1 = b.x; *y1 = b.y;
}
void ig_set_item_using_mouse_wheel(void) { ImGui::SetItemUsingMouseWheel(); }
bool ig_is_window_hovered(int flags) { return ImGui::IsWindowHovered(flags); }
bool ig_is_window_focused(int flags) { return ImGui::IsWindowFocused(flags); }

void ig_set_tooltip(const char *text) { ImGui::SetTooltip("%s", text); }
void ig_begin_tooltip(void) { ImGui::BeginTooltip(); }
void ig_end_tooltip(void) { ImGui::EndTooltip(); }
void ig_open_popup(const char *id) { ImGui::OpenPopup(id); }
bool ig_begin_popup(const char *id, int flags) { return ImGui::BeginPopup(id, flags); }
bool ig_begin_popup_modal(const char *name, bool *open, int flags) { return ImGui::BeginPopupModal(name, open, flags); }
void ig_end_popup(void) { ImGui::EndPopup(); }
void ig_close_current_popup(void) { ImGui::CloseCurrentPopup(); }
bool ig_is_popup_open(const char *id) { return ImGui::IsPopupOpen(id); }

void ig_push_style_color(int idx, float r, float g, float b, float a) { ImGui::PushStyleColor(idx, ImVec4(r, g, b, a)); }
void ig_pop_style_color(int count) { ImGui::PopStyleColor(count); }
void ig_push_style_var_float(int idx, float v) { ImGui::PushStyleVar(idx, v); }
void ig_push_style_var_vec2(int idx, float x, float y) { ImGui::PushStyleVar(idx, ImVec2(x, y)); }
void ig_pop_style_var(int count) { ImGui::PopStyleVar(count); }

void ig_draw_rect_filled(float x0, float y0, float x1, float y1, unsigned int c, float rounding) {
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), c, rounding);
}
void ig_draw_rect(float x0, float y0, float x1, float y1, unsigned int c, float thickness) {
    ImGui::GetWindowDrawList()->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), c, 0.0f, 0, thickness);
}
void ig_draw_line(float x0, float y0, float x1, float y1, unsigned int c, float thickness) {
    ImGui::GetWindowDrawList()->AddLine(ImVec2(x0, y0), ImVec2(x1, y1), c, thickness);
}
void ig_draw_text(float x, float y, unsigned int c, const char *text) { ImGui::GetWindowDrawList()->AddText(ImVec2(x, y), c, text); }
void ig_draw_polyline(const float *xy, int points, unsigned int c, float thickness) {
    ImGui::GetWindowDrawList()->AddPolyline((const ImVec2 *)xy, points, c, 0, thickness);
}
void ig_fg_draw_rect_filled(float x0, float y0, float x1, float y1, unsigned int c, float rounding) {
    ImGui::GetForegroundDrawList()->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), c, rounding);
}
void ig_fg_draw_text(float x, float y, unsigned int c, const char *text) { ImGui::GetForegroundDrawList()->AddText(ImVec2(x, y), c, text); }

}  // extern "C"
