// One JACK client with one MIDI input and one MIDI output port (libjack).
// Threads: JACK's process thread moves MIDI between the ports and two
// single-producer/single-consumer byte rings (ByteRing below: lock-free,
// no allocation); the caller's thread (the app's MIDI thread) reads the
// input ring and writes the output ring (writes are serialised by a mutex
// so a test may send from two threads). JACK's notification thread only
// sets atomics (shutdown, graph changed). A message crosses a ring as a
// 16-bit length followed by its bytes.
#include "MidiShim.h"
#include "ShimLog.hpp"

#include <jack/jack.h>
#include <jack/midiport.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace {
// A single-producer/single-consumer byte ring. Not jack_ringbuffer: its read
// and write pointers are plain stores and loads with no barrier, which holds
// on x86-64 only by the hardware's store order (ThreadSanitizer reports every
// use of it as a race); here the writer publishes its bytes with a release
// store of `head` and the reader frees space with a release store of `tail`,
// each reading the other's index with acquire. Indices count bytes forever
// (size_t wraps, the size is a power of two), so all `size` bytes are usable.
class ByteRing {
public:
    explicit ByteRing(size_t size) : buf_(size), mask_(size - 1) {}
    // Reader side.
    size_t readSpace() const { return head_.load(std::memory_order_acquire) - tail_.load(std::memory_order_relaxed); }
    void peek(void *dst, size_t n) const { copyOut(tail_.load(std::memory_order_relaxed), static_cast<char *>(dst), n); }
    void skip(size_t n) { tail_.store(tail_.load(std::memory_order_relaxed) + n, std::memory_order_release); }
    void read(void *dst, size_t n) { peek(dst, n); skip(n); }
    // Writer side.
    size_t writeSpace() const { return buf_.size() - (head_.load(std::memory_order_relaxed) - tail_.load(std::memory_order_acquire)); }
    void write(const void *src, size_t n) {
        const size_t head = head_.load(std::memory_order_relaxed);
        const size_t at = head & mask_, first = std::min(n, buf_.size() - at);
        memcpy(&buf_[at], src, first);
        memcpy(&buf_[0], static_cast<const char *>(src) + first, n - first);
        head_.store(head + n, std::memory_order_release);
    }

private:
    void copyOut(size_t from, char *dst, size_t n) const {
        const size_t at = from & mask_, first = std::min(n, buf_.size() - at);
        memcpy(dst, &buf_[at], first);
        memcpy(dst + first, &buf_[0], n - first);
    }
    std::vector<char> buf_;
    size_t mask_;
    std::atomic<size_t> head_{0}, tail_{0};
};
}  // namespace

struct midishim_jack {
    jack_client_t *client = nullptr;
    jack_port_t *in = nullptr;
    jack_port_t *out = nullptr;
    ByteRing inRing{1 << 16};
    ByteRing outRing{1 << 16};
    std::mutex sending;
    std::atomic<bool> alive{true};
    std::atomic<bool> changed{true};
    std::atomic<uint64_t> dropped{0};
    std::string name;
};

namespace {
constexpr size_t largest = 1024;  // longer messages (big SysEx dumps) are skipped

int process(jack_nframes_t frames, void *arg) {
    auto *j = static_cast<midishim_jack *>(arg);
    void *inBuffer = jack_port_get_buffer(j->in, frames);
    uint32_t count = jack_midi_get_event_count(inBuffer);
    for (uint32_t i = 0; i < count; i++) {
        jack_midi_event_t event;
        if (jack_midi_event_get(&event, inBuffer, i) != 0 || event.size == 0 || event.size > largest) continue;
        uint16_t length = static_cast<uint16_t>(event.size);
        if (j->inRing.writeSpace() < sizeof length + length) {
            j->dropped.fetch_add(1, std::memory_order_relaxed);
            continue;
        }
        j->inRing.write(&length, sizeof length);
        j->inRing.write(event.buffer, length);
    }
    void *outBuffer = jack_port_get_buffer(j->out, frames);
    jack_midi_clear_buffer(outBuffer);
    uint16_t length;
    while (j->outRing.readSpace() >= sizeof length) {
        j->outRing.peek(&length, sizeof length);
        if (j->outRing.readSpace() < sizeof length + length) break;
        jack_midi_data_t *slot = jack_midi_event_reserve(outBuffer, 0, length);
        if (!slot) break;  // this cycle's buffer is full: the rest goes in the next one
        j->outRing.skip(sizeof length);
        j->outRing.read(slot, length);
    }
    return 0;
}

void onShutdown(jack_status_t, const char *reason, void *arg) {
    auto *j = static_cast<midishim_jack *>(arg);
    j->alive.store(false);
    midishim::log(std::string("JACK shut the client down: ") + (reason ? reason : ""));
}

void onPortRegistration(jack_port_id_t, int, void *arg) { static_cast<midishim_jack *>(arg)->changed.store(true); }
void onConnect(jack_port_id_t, jack_port_id_t, int, void *arg) { static_cast<midishim_jack *>(arg)->changed.store(true); }

std::string statusText(jack_status_t s) {
    if (s & JackServerFailed) return "no JACK server answers (its socket may be left over from one that died)";
    if (s & JackServerError) return "the JACK server refused the client";
    if (s & JackNameNotUnique) return "the client name is taken";
    if (s & JackVersionError) return "the JACK server speaks another protocol version";
    if (s & JackShmFailure) return "JACK's shared memory could not be opened";
    return "JACK client could not be opened (status " + std::to_string(static_cast<int>(s)) + ")";
}

void release(midishim_jack *j) {
    if (j->client) jack_client_close(j->client);
    delete j;
}
}  // namespace

extern "C" midishim_jack *midishim_jack_open(const char *client, const char *server, bool activate, char *error, size_t error_size) {
    jack_status_t status = static_cast<jack_status_t>(0);
    jack_client_t *c = server ? jack_client_open(client, static_cast<jack_options_t>(JackNoStartServer | JackServerName), &status, server)
                              : jack_client_open(client, JackNoStartServer, &status);
    if (!c) {
        midishim::copy(statusText(status), error, error_size);
        return nullptr;
    }
    auto *j = new midishim_jack;
    j->client = c;
    j->name = jack_get_client_name(c);
    j->in = jack_port_register(c, "in", JACK_DEFAULT_MIDI_TYPE, JackPortIsInput, 0);
    j->out = jack_port_register(c, "out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
    if (!j->in || !j->out) {
        midishim::copy("JACK: could not register the MIDI ports", error, error_size);
        release(j);
        return nullptr;
    }
    jack_set_process_callback(c, process, j);
    jack_on_info_shutdown(c, onShutdown, j);
    jack_set_port_registration_callback(c, onPortRegistration, j);
    jack_set_port_connect_callback(c, onConnect, j);
    if (activate && !midishim_jack_activate(j, error, error_size)) {
        release(j);
        return nullptr;
    }
    return j;
}

extern "C" bool midishim_jack_activate(midishim_jack *j, char *error, size_t error_size) {
    if (jack_activate(j->client) == 0) return true;
    midishim::copy("JACK: could not activate the client", error, error_size);
    return false;
}

extern "C" void midishim_jack_close(midishim_jack *j) {
    if (!j) return;
    if (j->alive.load()) jack_deactivate(j->client);
    release(j);
}

extern "C" size_t midishim_jack_name(midishim_jack *j, char *buffer, size_t size) {
    midishim::copy(j->name, buffer, size);
    return j->name.size();
}

extern "C" bool midishim_jack_alive(midishim_jack *j) { return j->alive.load(); }

extern "C" bool midishim_jack_take_changed(midishim_jack *j) { return j->changed.exchange(false); }

extern "C" size_t midishim_jack_ports(midishim_jack *j, bool sources, char *buffer, size_t size) {
    std::string list;
    if (j->alive.load()) {
        const char **ports = jack_get_ports(j->client, nullptr, JACK_DEFAULT_MIDI_TYPE, sources ? JackPortIsOutput : JackPortIsInput);
        const std::string own = j->name + ":";
        for (const char **p = ports; p && *p; p++) {
            if (strncmp(*p, own.c_str(), own.size()) == 0) continue;
            if (!list.empty()) list += '\n';
            list += *p;
        }
        if (ports) jack_free(ports);
    }
    midishim::copy(list, buffer, size);
    return list.size();
}

extern "C" bool midishim_jack_connect(midishim_jack *j, const char *port, bool from_port, char *error, size_t error_size) {
    if (!j->alive.load()) {
        midishim::copy("the JACK server went away", error, error_size);
        return false;
    }
    const char *ours = jack_port_name(from_port ? j->in : j->out);
    int rc = from_port ? jack_connect(j->client, port, ours) : jack_connect(j->client, ours, port);
    if (rc == 0 || rc == EEXIST) return true;
    midishim::copy("JACK could not connect " + std::string(port) + " (error " + std::to_string(rc) + ")", error, error_size);
    return false;
}

extern "C" int midishim_jack_output_connections(midishim_jack *j) {
    return j->alive.load() ? jack_port_connected(j->out) : 0;
}

extern "C" int midishim_jack_read(midishim_jack *j, unsigned char *buffer, size_t size) {
    uint16_t length;
    while (j->inRing.readSpace() >= sizeof length) {
        j->inRing.peek(&length, sizeof length);
        if (j->inRing.readSpace() < sizeof length + length) return 0;  // the rest is on its way
        j->inRing.skip(sizeof length);
        if (length > size) {
            j->inRing.skip(length);
            continue;
        }
        j->inRing.read(buffer, length);
        return length;
    }
    return 0;
}

extern "C" bool midishim_jack_send(midishim_jack *j, const unsigned char *bytes, size_t size) {
    if (size == 0 || size > largest) return false;
    std::lock_guard<std::mutex> lock(j->sending);
    uint16_t length = static_cast<uint16_t>(size);
    if (j->outRing.writeSpace() < sizeof length + length) {
        j->dropped.fetch_add(1, std::memory_order_relaxed);
        return false;
    }
    j->outRing.write(&length, sizeof length);
    j->outRing.write(bytes, length);
    return true;
}

extern "C" uint64_t midishim_jack_dropped(midishim_jack *j) { return j->dropped.load(); }
