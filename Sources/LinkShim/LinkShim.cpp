// Ableton Link behind the C surface of LinkShim.h. Only the app-thread
// functions of Link are used (captureAppSessionState / commitAppSessionState).
#include "LinkShim.h"

#include <ableton/Link.hpp>

#include <chrono>

struct linkshim {
    explicit linkshim(double bpm) : link(bpm) {}
    ableton::Link link;
};

namespace {
std::chrono::microseconds us(int64_t t) { return std::chrono::microseconds(t); }
}  // namespace

extern "C" linkshim *linkshim_new(double bpm) {
    try {
        return new linkshim(bpm);
    } catch (...) {
        return nullptr;  // Link could not start its network service
    }
}

extern "C" void linkshim_free(linkshim *l) { delete l; }

extern "C" void linkshim_enable(linkshim *l, bool on) { l->link.enable(on); }

extern "C" bool linkshim_enabled(linkshim *l) { return l->link.isEnabled(); }

extern "C" void linkshim_enable_start_stop_sync(linkshim *l, bool on) { l->link.enableStartStopSync(on); }

extern "C" size_t linkshim_peers(linkshim *l) { return l->link.numPeers(); }

extern "C" int64_t linkshim_now(linkshim *l) { return l->link.clock().micros().count(); }

extern "C" linkshim_state linkshim_capture(linkshim *l, int64_t micros, double quantum) {
    const auto s = l->link.captureAppSessionState();
    linkshim_state out;
    out.bpm = s.tempo();
    out.beat = s.beatAtTime(us(micros), quantum);
    out.phase = s.phaseAtTime(us(micros), quantum);
    out.playing = s.isPlaying();
    return out;
}

extern "C" void linkshim_set_tempo(linkshim *l, double bpm, int64_t micros) {
    auto s = l->link.captureAppSessionState();
    s.setTempo(bpm, us(micros));
    l->link.commitAppSessionState(s);
}

extern "C" void linkshim_set_playing(linkshim *l, bool playing, int64_t micros, double quantum) {
    auto s = l->link.captureAppSessionState();
    if (playing) {
        s.setIsPlayingAndRequestBeatAtTime(true, us(micros), 0, quantum);
    } else {
        s.setIsPlaying(false, us(micros));
    }
    l->link.commitAppSessionState(s);
}

extern "C" int64_t linkshim_time_at_beat(linkshim *l, double beat, double quantum) {
    return l->link.captureAppSessionState().timeAtBeat(beat, quantum).count();
}
