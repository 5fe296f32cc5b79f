#ifndef MIDISHIM_H
#define MIDISHIM_H
/* A small C API over the MIDI libraries, for Swift (LiveApp/Control/MidiPorts.swift).
   - RtMidi's C++ API for the ALSA sequencer: every RtMidiError is caught here
     and its what() text copied into the caller's buffer before the exception
     is gone (the C wrapper of Debian 12's rtmidi 5.0 keeps a pointer into a
     destroyed exception instead).
   - JACK through libjack directly: one client with one MIDI input port ("in")
     and one MIDI output port ("out"), connected to every other client's MIDI
     ports, and a flag that says when the server went away.
   - The libraries' own messages (JACK's error and info output, ALSA lib
     errors, RtMidi's warnings on std::cerr) go to one log function instead
     of stderr.
   Only plain C types cross this boundary. Thread safety: each handle is used
   by one thread at a time (the app's MIDI thread); JACK's process and
   notification threads only touch the handle's ring buffers and atomics. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* ---- library messages ---- */
/* Where the libraries' messages go (`fn` NULL: dropped). Called from any thread. */
typedef void (*midishim_log_fn)(const char *line);
void midishim_set_log(midishim_log_fn fn);

/* ---- RtMidi (the ALSA sequencer; JACK only where a test asks for it) ---- */
enum { MIDISHIM_API_ALSA = 0, MIDISHIM_API_JACK = 1 };
typedef struct midishim_rt midishim_rt;
/* An RtMidiIn (or RtMidiOut when `output`) of `client`: connected to the port
   named `port`, or a virtual port when `port` is NULL; its own port is named
   `own_port`. NULL on failure, with RtMidi's message copied into `error`. */
midishim_rt *midishim_rt_open(int api, bool output, const char *client, const char *port, const char *own_port,
                              char *error, size_t error_size);
void midishim_rt_free(midishim_rt *m);
/* The ports this device could connect to, names separated by '\n' (copied into
   `buffer`, cut at `size`); returns the length the whole list needs. */
size_t midishim_rt_ports(midishim_rt *m, char *buffer, size_t size);
/* The next queued message of an input: its size, 0 when none is waiting, -1 when it does not fit. */
int midishim_rt_read(midishim_rt *m, unsigned char *buffer, size_t size);
/* Sends one message on an output; false on failure. */
bool midishim_rt_send(midishim_rt *m, const unsigned char *bytes, size_t size);

/* ---- JACK: one client, one MIDI input and one MIDI output port ---- */
typedef struct midishim_jack midishim_jack;
/* Opens a client named `client` on the server named `server` (NULL: the
   default, $JACK_DEFAULT_SERVER; never starting one), registers "in" and
   "out" and activates it unless `activate` is false (its ports then exist
   but JACK refuses to connect them until midishim_jack_activate). NULL on
   failure, with the reason in `error`. */
midishim_jack *midishim_jack_open(const char *client, const char *server, bool activate, char *error, size_t error_size);
/* Activates a client opened with `activate` false; false on failure, with the reason in `error`. */
bool midishim_jack_activate(midishim_jack *j, char *error, size_t error_size);
void midishim_jack_close(midishim_jack *j);
/* The client's name as the server gave it ("Physarum Live", or with a suffix when taken). */
size_t midishim_jack_name(midishim_jack *j, char *buffer, size_t size);
/* False once the server shut the client down (it died or kicked us out). */
bool midishim_jack_alive(midishim_jack *j);
/* True once after ports appeared, went away or were (dis)connected. */
bool midishim_jack_take_changed(midishim_jack *j);
/* Other clients' MIDI ports: their outputs (`sources`) or inputs, names
   separated by '\n'; returns the length the whole list needs. */
size_t midishim_jack_ports(midishim_jack *j, bool sources, char *buffer, size_t size);
/* Connects `port` to our input (`from_port`) or our output to `port`; false with the reason. */
bool midishim_jack_connect(midishim_jack *j, const char *port, bool from_port, char *error, size_t error_size);
/* How many ports our output is connected to now. */
int midishim_jack_output_connections(midishim_jack *j);
/* The next message that came in: its size, 0 when none is waiting. */
int midishim_jack_read(midishim_jack *j, unsigned char *buffer, size_t size);
/* Queues one message for the output (sent in the next process cycle); false when the queue is full. */
bool midishim_jack_send(midishim_jack *j, const unsigned char *bytes, size_t size);
/* Messages dropped because a queue was full (in and out). */
uint64_t midishim_jack_dropped(midishim_jack *j);

#ifdef __cplusplus
}
#endif
#endif
