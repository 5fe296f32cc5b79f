// RtMidi's C++ API behind the C surface of MidiShim.h. Every RtMidiError is
// caught here and its text copied while the exception still lives; after
// opening, an error callback takes RtMidi's later errors (so nothing is
// thrown or printed). RtMidi's constructors print to std::cerr before a
// callback can be set: that text is captured around every RtMidi call and
// sent to the log (ShimLog.cpp) instead.
#include "MidiShim.h"
#include "ShimLog.hpp"

#include <RtMidi.h>

#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

struct midishim_rt {
    // RtMidi's own destructor is protected: the concrete device is owned.
    std::unique_ptr<RtMidiIn> input;
    std::unique_ptr<RtMidiOut> output;
    RtMidi *device = nullptr;
    bool failed = false;
    std::string lastError;
    std::vector<unsigned char> message;
};

namespace {
/// Sends what RtMidi writes to std::cerr during its lifetime to the log. The
/// MIDI thread is the only caller; another thread writing std::cerr meanwhile
/// would be captured too (and logged), never lost.
class CerrCapture {
public:
    CerrCapture() : previous(std::cerr.rdbuf(captured.rdbuf())) {}
    ~CerrCapture() {
        std::cerr.rdbuf(previous);
        midishim::log(captured.str());
    }

private:
    std::stringstream captured;
    std::streambuf *previous;
};

void onError(RtMidiError::Type, const std::string &text, void *context) {
    auto *m = static_cast<midishim_rt *>(context);
    m->failed = true;
    m->lastError = text;
    midishim::log(text);
}

RtMidi::Api api(int which) { return which == MIDISHIM_API_JACK ? RtMidi::UNIX_JACK : RtMidi::LINUX_ALSA; }

std::string portList(RtMidi &d) {
    std::string out;
    unsigned n = d.getPortCount();
    for (unsigned i = 0; i < n; i++) {
        if (i) out += '\n';
        out += d.getPortName(i);
    }
    return out;
}
}  // namespace

extern "C" midishim_rt *midishim_rt_open(int which, bool output, const char *client, const char *port, const char *own_port,
                                         char *error, size_t error_size) {
    CerrCapture capture;
    std::unique_ptr<midishim_rt> m(new midishim_rt);
    try {
        if (output) {
            m->output.reset(new RtMidiOut(api(which), client ? client : "Physarum Live"));
            m->device = m->output.get();
        } else {
            m->input.reset(new RtMidiIn(api(which), client ? client : "Physarum Live", 1024));
            m->device = m->input.get();
            m->input->ignoreTypes(true, false, true);
        }
        m->device->setErrorCallback(onError, m.get());
        const std::string own = own_port ? own_port : (output ? "out" : "in");
        if (port) {
            unsigned n = m->device->getPortCount();
            unsigned found = n;
            for (unsigned i = 0; i < n && found == n; i++) {
                if (m->device->getPortName(i) == port) found = i;
            }
            if (found == n) {
                midishim::copy(std::string("MIDI port '") + port + "' is gone", error, error_size);
                return nullptr;
            }
            m->device->openPort(found, own);
        } else {
            m->device->openVirtualPort(own);
        }
    } catch (const RtMidiError &e) {
        midishim::copy(e.what(), error, error_size);  // copied while `e` lives
        return nullptr;
    } catch (const std::exception &e) {
        midishim::copy(e.what(), error, error_size);
        return nullptr;
    }
    if (m->failed) {
        midishim::copy(m->lastError, error, error_size);
        return nullptr;
    }
    return m.release();
}

extern "C" void midishim_rt_free(midishim_rt *m) {
    if (!m) return;
    CerrCapture capture;
    try {
        m->device->closePort();
    } catch (const RtMidiError &e) {
        midishim::log(e.what());
    }
    delete m;
}

extern "C" size_t midishim_rt_ports(midishim_rt *m, char *buffer, size_t size) {
    CerrCapture capture;
    std::string list;
    try {
        list = portList(*m->device);
    } catch (const RtMidiError &e) {
        midishim::log(e.what());
    }
    midishim::copy(list, buffer, size);
    return list.size();
}

extern "C" int midishim_rt_read(midishim_rt *m, unsigned char *buffer, size_t size) {
    if (!m->input) return -1;
    try {
        m->input->getMessage(&m->message);
    } catch (const RtMidiError &e) {
        midishim::log(e.what());
        return -1;
    }
    if (m->message.empty()) return 0;
    if (m->message.size() > size) return -1;
    std::copy(m->message.begin(), m->message.end(), buffer);
    return static_cast<int>(m->message.size());
}

extern "C" bool midishim_rt_send(midishim_rt *m, const unsigned char *bytes, size_t size) {
    if (!m->output || size == 0) return false;
    m->failed = false;
    try {
        m->output->sendMessage(bytes, size);
    } catch (const RtMidiError &e) {
        midishim::log(e.what());
        return false;
    }
    return !m->failed;
}
