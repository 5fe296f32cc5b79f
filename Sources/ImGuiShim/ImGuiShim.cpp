#include "ImGuiShim.h"
#include <imgui.h>

extern "C" const char *imguishim_version(void) { return ImGui::GetVersion(); }
