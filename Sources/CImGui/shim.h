#ifndef CIMGUI_SHIM_H
#define CIMGUI_SHIM_H
/* Dear ImGui is C++; this module only carries its include path and link
   flags (pkg-config `imgui`) to the ImGuiShim C++ target, whose own
   header is the C API Swift sees. Nothing is imported into Swift here. */
#endif
