// The shim's one log sink (midishim_set_log), shared by its files.
#pragma once
#include <string>

namespace midishim {
/// Hands `text` to the log function line by line (blank lines dropped).
void log(const std::string &text);
/// Copies `text` into a C buffer of `size` bytes (always terminated, cut when longer).
void copy(const std::string &text, char *buffer, size_t size);
}  // namespace midishim
