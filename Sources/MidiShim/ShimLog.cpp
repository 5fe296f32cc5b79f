// The libraries' own messages, routed to one function instead of stderr:
// JACK's error and info output (jack_set_error_function / jack_set_info_function)
// and ALSA lib's errors (snd_lib_error_set_handler). RtMidi's std::cerr output
// is captured where RtMidi is called (RtMidiShim.cpp).
#include "MidiShim.h"
#include "ShimLog.hpp"

#include <alsa/asoundlib.h>
#include <jack/jack.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace {
std::atomic<midishim_log_fn> sink{nullptr};

void jackMessage(const char *text) { midishim::log(text ? text : ""); }

void alsaMessage(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    char body[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(body, sizeof body, fmt, args);
    va_end(args);
    char text[768];
    snprintf(text, sizeof text, "ALSA lib %s:%d:(%s) %s%s%s", file ? file : "?", line, function ? function : "?", body,
             err ? ": " : "", err ? snd_strerror(err) : "");
    midishim::log(text);
}
}  // namespace

void midishim::log(const std::string &text) {
    midishim_log_fn fn = sink.load();
    if (!fn) return;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.find_first_not_of(" \t\r") != std::string::npos) fn(line.c_str());
    }
}

void midishim::copy(const std::string &text, char *buffer, size_t size) {
    if (!buffer || size == 0) return;
    size_t n = text.size() < size - 1 ? text.size() : size - 1;
    memcpy(buffer, text.data(), n);
    buffer[n] = 0;
}

extern "C" void midishim_set_log(midishim_log_fn fn) {
    sink.store(fn);
    jack_set_error_function(jackMessage);
    jack_set_info_function(jackMessage);
    snd_lib_error_set_handler(alsaMessage);
}
