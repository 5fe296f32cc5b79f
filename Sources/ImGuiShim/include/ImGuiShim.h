#ifndef IMGUISHIM_H
#define IMGUISHIM_H
/* A small C API over Dear ImGui 1.86 (Debian libimgui-dev) and its SDL2 +
   OpenGL3 backends, for Swift. Only plain C types cross this boundary; SDL
   and GL handles travel as void*. Every function acts on the current ImGui
   context and must be called from the thread that owns it (the main thread
   in the app, the test's thread in headless tests). Keyboard indices are SDL
   scancodes, in the app and in headless mode alike. */
#include <stdbool.h>
#ifdef __cplusplus
extern "C" {
#endif

/* ---- context, fonts, backends ---- */
const char *imguishim_version(void);
void ig_create_context(void);
void ig_destroy_context(void);
bool ig_has_context(void);
/* Headless use (tests): display size, SDL-scancode key map, no .ini file. */
void ig_setup_headless(float width, float height);
void ig_set_display_size(float width, float height);
void ig_get_display_size(float *width, float *height);
/* Adds a TTF font at `size_px` (first one becomes the default); false if the file cannot be loaded. */
bool ig_add_font_ttf(const char *path, float size_px);
/* Removes every font (before adding fonts at a new size). */
void ig_clear_fonts(void);
/* Builds the font atlas (needed before the first frame when no renderer backend does it). */
void ig_build_font_atlas(void);
void ig_set_font_global_scale(float scale);
void ig_style_dark(float scale, float alpha);
bool ig_init_sdl_gl(void *sdl_window, void *gl_context, const char *glsl_version);
void ig_shutdown_sdl_gl(void);
/* Recreates the GL font texture after fonts changed (app only). */
void ig_rebuild_fonts_gl(void);
bool ig_process_sdl_event(const void *sdl_event);
void ig_new_frame_sdl_gl(void);
void ig_new_frame_headless(float delta_seconds);
void ig_render(void);
void ig_render_gl(void);
/* The panels through a retained layer (UILayerCache.cpp): only what changed
   since the last frame is rasterised again (into an offscreen texture).
   ig_ui_layer_update brings the layer up to date (with cpu_mirror, also its
   CPU copy); false = it cannot be used, draw with ig_render_gl. Then either
   ig_ui_layer_composite_cpu blends it into a same-size RGBA image before the
   upload (false when the sizes differ), or ig_ui_layer_composite_gl blends it
   over the picture already in the bound framebuffer. */
void ig_ui_cache_set_enabled(bool on);
void ig_ui_cache_release(void);     /* GL objects; needs the context current */
void ig_ui_cache_invalidate(void);  /* redraw it all next frame */
long ig_ui_cache_dirty_pixels(void);      /* last frame: pixels rasterised again */
long ig_ui_cache_composite_pixels(void);  /* last frame: pixels blended over the picture */
bool ig_gl_is_software(void);       /* llvmpipe & co: every pixel costs CPU */
bool ig_ui_layer_update(bool cpu_mirror);
void ig_ui_layer_composite_gl(void);
bool ig_ui_layer_composite_cpu(unsigned char *rgba, int width, int height);
/* The layer's content boxes (x, y, w, h; top-left origin; disjoint), up to
   max of them; returns how many there are. */
int ig_ui_layer_boxes(int *xywh, int max);
int ig_draw_vertex_count(void);

/* ---- input injection (headless) and queries ---- */
void ig_io_set_mouse_pos(float x, float y);
void ig_io_set_mouse_button(int button, bool down);
void ig_io_add_mouse_wheel(float v);
void ig_io_set_key(int scancode, bool down);
void ig_io_set_mods(bool ctrl, bool shift, bool alt);
void ig_io_add_input_utf8(const char *text);
bool ig_io_want_capture_keyboard(void);
bool ig_io_want_capture_mouse(void);
bool ig_io_want_text_input(void);
float ig_io_mouse_wheel(void);
bool ig_io_key_ctrl(void);
bool ig_io_key_shift(void);
bool ig_io_key_alt(void);
bool ig_is_key_pressed(int scancode, bool repeat);
bool ig_is_key_down(int scancode);
bool ig_is_mouse_double_clicked(int button);
bool ig_is_mouse_clicked(int button);
void ig_get_mouse_pos(float *x, float *y);
bool ig_is_any_item_active(void);
bool ig_is_any_item_hovered(void);
float ig_framerate(void);

/* ---- windows and layout ---- */
bool ig_begin(const char *name, bool *open, int flags);
void ig_end(void);
bool ig_begin_child(const char *id, float w, float h, bool border, int flags);
void ig_end_child(void);
void ig_set_next_window_pos(float x, float y, int cond, float pivot_x, float pivot_y);
void ig_set_next_window_size(float w, float h, int cond);
void ig_set_next_window_bg_alpha(float alpha);
void ig_set_next_window_collapsed(bool collapsed, int cond);
void ig_set_next_window_focus(void);
/* Draws the current window above every other window (without taking focus). */
void ig_bring_current_window_to_front(void);
/* Position of a window in the display order (0 = drawn first, at the back), -1 if none. */
int ig_window_display_index(const char *name);
void ig_same_line(float offset, float spacing);
void ig_separator(void);
void ig_spacing(void);
void ig_dummy(float w, float h);
void ig_indent(float w);
void ig_unindent(float w);
void ig_push_id_int(int id);
void ig_push_id_str(const char *id);
void ig_pop_id(void);
void ig_push_item_width(float w);
void ig_pop_item_width(void);
void ig_set_next_item_width(float w);
void ig_get_content_region_avail(float *w, float *h);
void ig_get_cursor_screen_pos(float *x, float *y);
void ig_get_window_pos(float *x, float *y);
void ig_get_window_size(float *w, float *h);
float ig_get_frame_height(void);
float ig_get_text_line_height(void);
float ig_calc_text_width(const char *text);
void ig_set_scroll_here_y(float ratio);
float ig_get_scroll_y(void);
void ig_set_keyboard_focus_here(int offset);

/* ---- keyboard navigation ---- */
/* Turns Dear ImGui's keyboard navigation on or off (arrows, Space, Enter, Esc, Ctrl+Tab). */
void ig_enable_keyboard_nav(bool on);
/* A control has keyboard focus and its highlight is shown. */
bool ig_nav_visible(void);
/* The screen rectangle of the control with keyboard focus; false when none. */
bool ig_nav_rect(float *x0, float *y0, float *x1, float *y1);
/* The name of the window (root) holding keyboard focus ("" when none). */
const char *ig_nav_window_name(void);
/* Keeps this frame's arrow key from moving the focus (the focused control used it). */
void ig_nav_move_request_cancel(void);
/* The item `label` (in the current ID scope, before it is drawn) was activated from the keyboard (Space). */
bool ig_is_nav_active(const char *label);
/* ImGui's own arrow tweak of the active slider is dropped for this frame (the app steps it). */
void ig_nav_suppress_tweak(void);

/* ---- style metrics (after scaling) ---- */
float ig_style_item_spacing_x(void);
float ig_style_window_padding_x(void);
float ig_style_frame_padding_x(void);
void ig_set_next_window_size_constraints(float min_w, float min_h, float max_w, float max_h);

/* ---- widgets ---- */
void ig_text(const char *text);
void ig_text_colored(float r, float g, float b, float a, const char *text);
void ig_text_disabled(const char *text);
void ig_text_wrapped(const char *text);
void ig_label_text(const char *label, const char *text);
bool ig_button(const char *label, float w, float h);
bool ig_small_button(const char *label);
bool ig_checkbox(const char *label, bool *v);
bool ig_radio_button(const char *label, bool active);
bool ig_slider_float(const char *label, float *v, float min, float max, const char *format, int flags);
/* A slider over a double (typed entry with Ctrl+click parses into the double exactly). */
bool ig_slider_double(const char *label, double *v, double min, double max, const char *format, int flags);
bool ig_slider_int(const char *label, int *v, int min, int max, const char *format, int flags);
bool ig_input_text(const char *label, char *buf, int buf_size, int flags);
bool ig_input_text_with_hint(const char *label, const char *hint, char *buf, int buf_size, int flags);
bool ig_input_double(const char *label, double *v, const char *format, int flags);
bool ig_selectable(const char *label, bool selected, int flags, float w, float h);
bool ig_begin_combo(const char *label, const char *preview, int flags);
void ig_end_combo(void);
bool ig_color_edit3(const char *label, float *rgb, int flags);
bool ig_collapsing_header(const char *label, int flags);
bool ig_tree_node(const char *label);
void ig_tree_pop(void);
bool ig_begin_tab_bar(const char *id, int flags);
void ig_end_tab_bar(void);
bool ig_begin_tab_item(const char *label, bool *open, int flags);
void ig_end_tab_item(void);
void ig_progress_bar(float fraction, float w, float h, const char *overlay);
void ig_image(unsigned int gl_texture, float w, float h);
bool ig_begin_main_menu_bar(void);
void ig_end_main_menu_bar(void);
bool ig_begin_menu(const char *label, bool enabled);
void ig_end_menu(void);
bool ig_menu_item(const char *label, const char *shortcut, bool selected, bool enabled);

/* ---- item queries ---- */
bool ig_is_item_hovered(int flags);
bool ig_is_item_active(void);
bool ig_is_item_activated(void);
bool ig_is_item_deactivated(void);
bool ig_is_item_deactivated_after_edit(void);
bool ig_is_item_focused(void);
bool ig_is_item_clicked(int button);
bool ig_is_item_edited(void);
void ig_get_item_rect(float *x0, float *y0, float *x1, float *y1);
/* Marks the hovered item as using the wheel so the window does not scroll. */
void ig_set_item_using_mouse_wheel(void);
bool ig_is_window_hovered(int flags);
bool ig_is_window_focused(int flags);

/* ---- tooltips and popups ---- */
void ig_set_tooltip(const char *text);
void ig_begin_tooltip(void);
void ig_end_tooltip(void);
void ig_open_popup(const char *id);
bool ig_begin_popup(const char *id, int flags);
bool ig_begin_popup_modal(const char *name, bool *open, int flags);
void ig_end_popup(void);
void ig_close_current_popup(void);
bool ig_is_popup_open(const char *id);

/* ---- style ---- */
void ig_push_style_color(int idx, float r, float g, float b, float a);
void ig_pop_style_color(int count);
void ig_push_style_var_float(int idx, float v);
void ig_push_style_var_vec2(int idx, float x, float y);
void ig_pop_style_var(int count);

/* ---- drawing into the current window ---- */
void ig_draw_rect_filled(float x0, float y0, float x1, float y1, unsigned int abgr, float rounding);
void ig_draw_rect(float x0, float y0, float x1, float y1, unsigned int abgr, float thickness);
void ig_draw_line(float x0, float y0, float x1, float y1, unsigned int abgr, float thickness);
void ig_draw_text(float x, float y, unsigned int abgr, const char *text);
void ig_draw_polyline(const float *xy, int points, unsigned int abgr, float thickness);
/* The same on the foreground draw list (over every window). */
void ig_fg_draw_rect_filled(float x0, float y0, float x1, float y1, unsigned int abgr, float rounding);
void ig_fg_draw_text(float x, float y, unsigned int abgr, const char *text);

/* ---- layout probe (ShimLayout.cpp) ----
   While on, every widget drawn through this shim is recorded with its
   rectangle, the rectangle its visible text takes and the box that text must
   stay in (per widget kind: a button's frame less its padding, a slider's
   frame, a section header after its arrow, plain text the window's visible
   width …), in its window (tooltips, popups and menus are not recorded).
   Read it after the frame; NewFrame clears it. */
enum {
    IG_PROBE_TEXT = 0, IG_PROBE_BUTTON, IG_PROBE_CHECK, IG_PROBE_SLIDER, IG_PROBE_SELECTABLE, IG_PROBE_COMBO,
    IG_PROBE_HEADER, IG_PROBE_MENU, IG_PROBE_INPUT, IG_PROBE_TITLE, IG_PROBE_DRAWN_TEXT, IG_PROBE_TAB, IG_PROBE_OTHER
};
typedef struct {
    const char *window; /* the root window's name; valid until the next frame */
    const char *text;   /* the visible text ("" for none) */
    int kind;           /* IG_PROBE_* */
    bool visible;       /* wholly inside its window's visible height (not scrolled away) */
    float item[4], text_rect[4], box[4]; /* x0, y0, x1, y1 */
    float clip[4];      /* what of its window shows: the content area (or the menu bar) */
} IgProbeItem;
void ig_probe_enable(bool on);
int ig_probe_count(void);
bool ig_probe_get(int i, IgProbeItem *out);
/* Root windows on screen (not popups, menus, tooltips or children): how many; then each one's name and rectangle. */
int ig_probe_windows(void);
const char *ig_probe_window(int i, float *xyxy);
/* Draws `text` at (x, y) in the current window, recorded with the horizontal box [box_x0, box_x1] it must stay in. */
void ig_probe_text_in(float x, float y, unsigned int abgr, const char *text, float box_x0, float box_x1);
/* Records the last item (IG_PROBE_* kind) with `text` as its visible text. */
void ig_probe_item(int kind, const char *text);

/* ---- keyboard focus moves ---- */
/* The keyboard focus to the main menu bar's first menu (highlighted, not opened); false when there is no menu bar. */
bool ig_focus_main_menu_bar(void);
/* The keyboard focus to window `name`'s first control (highlighted, not activated); false when it is not shown. */
bool ig_focus_window_nav(const char *name);

/* ---- item identity, time ---- */
unsigned int ig_get_item_id(void);
/* The right edge of the current window's room for items (scrollbar and padding kept clear), in screen pixels. */
float ig_work_max_x(void);
/* The name of the window being drawn ("##Menu_00" inside an open menu). */
const char *ig_current_window_name(void);
double ig_get_time(void);
int ig_get_frame_count(void);

/* ---- theme ---- */
int ig_style_color_count(void);
/* The style from a theme: `count` RGBA colours in ImGuiCol order; metrics at scale 1
   (frame padding x, y; item spacing x, y; inner spacing; grab size; scrollbar size; rounding), then scaled. */
void ig_style_set(const float *rgba, int count, const float *metrics, float scale);
/* A square button `size` wide showing a padlock: closed and filled when locked, open when not. */
bool ig_lock_button(const char *id, bool locked, float size);

#ifdef __cplusplus
}
#endif
#endif
