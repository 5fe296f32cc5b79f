#ifndef IMGUISHIM_H
#define IMGUISHIM_H
/* A small C API over Dear ImGui 1.86 (Debian libimgui-dev) for Swift.
   Only plain C types cross this boundary. */
#ifdef __cplusplus
extern "C" {
#endif

/// The Dear ImGui version string (calls ImGui::GetVersion).
const char *imguishim_version(void);

#ifdef __cplusplus
}
#endif
#endif
