#ifndef LINKSHIM_H
#define LINKSHIM_H
/* A small C API over Ableton Link (Debian ableton-link-dev, header-only C++,
   GPL-2.0-or-later), for Swift (LiveApp/Control/LinkPeer.swift). Times are
   microseconds on Link's own clock (linkshim_now). Session state is read and
   written through Link's "app session state" functions (captureAppSessionState
   / commitAppSessionState): for a non-audio thread, thread-safe, not
   realtime-safe. Link runs its own network thread(s); a handle may be used
   from any thread. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct linkshim linkshim;

/* The session at one moment with a quantum (beats per bar here). */
typedef struct {
    double bpm;
    /* Beats on the session's timeline; fmod(beat, quantum) == phase. */
    double beat;
    /* 0 ..< quantum: where in the bar. */
    double phase;
    /* The session's transport (start/stop sync). */
    bool playing;
} linkshim_state;

/* A Link instance at `bpm`, not yet enabled (not on the network). */
linkshim *linkshim_new(double bpm);
void linkshim_free(linkshim *l);
/* Joins (true) or leaves the session on the local network. */
void linkshim_enable(linkshim *l, bool on);
bool linkshim_enabled(linkshim *l);
/* Shares start/stop with the peers that have it on too. */
void linkshim_enable_start_stop_sync(linkshim *l, bool on);
/* Other peers in the session now. */
size_t linkshim_peers(linkshim *l);
/* Link's clock now, in microseconds. */
int64_t linkshim_now(linkshim *l);
linkshim_state linkshim_capture(linkshim *l, int64_t micros, double quantum);
/* Proposes a tempo to the session from `micros` on. */
void linkshim_set_tempo(linkshim *l, double bpm, int64_t micros);
/* Proposes start (with beat 0 of a bar at `micros`) or stop. */
void linkshim_set_playing(linkshim *l, bool playing, int64_t micros, double quantum);
/* When the session reaches `beat` (inverse of the state's beat at this tempo). */
int64_t linkshim_time_at_beat(linkshim *l, double beat, double quantum);

#ifdef __cplusplus
}
#endif
#endif
