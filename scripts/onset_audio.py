"""The building blocks of the onset evaluation and training sets: real sampled
instruments placed with exact truth (see scripts/onset-eval-set for the truth
convention), deterministic numbers, sox and fluidsynth I/O, the laptop
microphone chain. Evaluation and training tooling only: the app never needs it.
"""
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import numpy as np

SR = 48000
KITS = "/usr/share/hydrogen/data/drumkits"
SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
MERGE = 0.030
ONSET_DB = -30.0


# ---------- deterministic numbers ----------

def mix64(x):
    """splitmix64 finaliser on a Python int."""
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


def uniform(seed, i):
    """A number in [0, 1) from (seed, i)."""
    return mix64(mix64(seed) ^ i) / 2.0 ** 64


def noise_gauss(seed, n):
    """n Gaussian numbers (splitmix64 counter + Box-Muller), vectorised."""
    with np.errstate(over="ignore"):
        i = np.arange(n, dtype=np.uint64) + np.uint64(mix64(seed) & 0xFFFFFFFF) * np.uint64(1 << 32)
        def sm(x):
            x = x + np.uint64(0x9E3779B97F4A7C15)
            x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            return x ^ (x >> np.uint64(31))
        a = sm(i)
        b = sm(a)
    u1 = ((a >> np.uint64(11)).astype(np.float64) + 0.5) / 2.0 ** 53
    u2 = (b >> np.uint64(11)).astype(np.float64) / 2.0 ** 53
    return np.sqrt(-2 * np.log(u1)) * np.cos(2 * np.pi * u2)


def pink_noise(seed, n):
    """Pink (1/f power) noise, unit RMS, 20 Hz … Nyquist."""
    w = noise_gauss(seed, n)
    spec = np.fft.rfft(w)
    f = np.fft.rfftfreq(n, 1 / SR)
    shape = np.where(f >= 20, 1 / np.sqrt(np.maximum(f, 20)), 0)
    p = np.fft.irfft(spec * shape, n)
    return p / np.sqrt(np.mean(p ** 2))


# ---------- audio I/O ----------

def sox_read(path, effects=()):
    """Decodes any file sox reads to mono float at SR."""
    out = subprocess.run(["sox", "-V1", path, "-t", "raw", "-e", "floating-point", "-b", "32", "-c", "1",
                          "-r", str(SR), "-", *effects], check=True, capture_output=True).stdout
    return np.frombuffer(out, dtype="<f4").astype(np.float64)


def write_wav(path, x):
    """A 32-bit float mono WAV, written atomically."""
    data = np.asarray(x, dtype="<f4").tobytes()
    fmt = struct.pack("<HHIIHH", 3, 1, SR, SR * 4, 4, 32)
    head = b"RIFF" + struct.pack("<I", 4 + 8 + len(fmt) + 8 + len(data)) + b"WAVE"
    head += b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(head + data)
    os.replace(tmp, path)


def sox_chain(x, effects, work):
    """Runs x through sox effects (reverb, filters), same length, mono."""
    src = os.path.join(work, "chain-in.wav")
    write_wav(src, x)
    y = sox_read(src, ["channels", "1", *effects])
    out = np.zeros(len(x))
    out[:min(len(x), len(y))] = y[:len(x)]
    return out


def onset_index(x):
    """First sample at which |x| reaches ONSET_DB below its own peak."""
    a = np.abs(x)
    peak = a.max()
    if peak <= 0:
        return 0
    return int(np.argmax(a >= peak * 10 ** (ONSET_DB / 20)))


# ---------- sources: kits and soundfont ----------

class Kit:
    """A Hydrogen drumkit: instruments by name, velocity layers from drumkit.xml."""
    NS = "{http://www.hydrogen-music.org/drumkit}"

    def __init__(self, name):
        self.dir = os.path.join(KITS, name)
        root = ET.parse(os.path.join(self.dir, "drumkit.xml")).getroot()
        self.instruments = {}
        ns = self.NS if root.tag.startswith(self.NS) else ""  # old kits: no namespace, no layers
        for ins in root.iter(ns + "instrument"):
            n = (ins.findtext(ns + "name") or "").strip()
            layers = [(float(l.findtext(ns + "min")), float(l.findtext(ns + "max")),
                       l.findtext(ns + "filename")) for l in ins.findall(ns + "layer")]
            if not layers and ins.findtext(ns + "filename"):
                layers = [(0.0, 1.0, ins.findtext(ns + "filename"))]
            if layers and n not in self.instruments:
                self.instruments[n] = layers
        self.cache = {}

    def sample(self, instrument, velocity):
        """The layer Hydrogen plays at this velocity (first match), scaled by
        the velocity. `instrument`: a name or the start of one."""
        name = instrument if instrument in self.instruments else \
            next(n for n in self.instruments if n.startswith(instrument))
        layers = self.instruments[name]
        pick = next((f for lo, hi, f in layers if lo <= velocity <= hi), layers[-1][2])
        return self.file(pick) * velocity

    def file(self, name):
        if name not in self.cache:
            self.cache[name] = sox_read(os.path.join(self.dir, name))
        return self.cache[name]


class Synth:
    """General MIDI notes rendered one by one with fluidsynth (no reverb or
    chorus): notes sound alone, so each one's onset is measured exactly.
    `program` 0-127 plays on channel 1; 128 + k plays drum kit k on channel
    10 (bank 128)."""

    def __init__(self, work, soundfont=SOUNDFONT):
        self.work = work
        self.soundfont = soundfont
        self.cache = {}

    def notes(self, program, wanted):
        """Renders the (key, velocity, seconds) notes missing from the cache, in one fluidsynth run."""
        todo = sorted({w for w in wanted if (program,) + w not in self.cache})
        if not todo:
            return
        spacing = max(d for _, _, d in todo) + 3.0
        ticks = 960  # per second: 480 per quarter at 120 BPM
        ch = 9 if program >= 128 else 0
        events = [(0, bytes([0xC0 | ch, program % 128]))]
        for i, (key, vel, dur) in enumerate(todo):
            t0 = round(i * spacing * ticks)
            events.append((t0, bytes([0x90 | ch, key, vel])))
            events.append((t0 + round(dur * ticks), bytes([0x80 | ch, key, 0])))
        events.sort(key=lambda e: e[0])
        track, last = b"", 0
        for t, msg in events:
            track += varlen(t - last) + msg
            last = t
        end_tick = round(len(todo) * spacing * ticks)
        track += varlen(end_tick - last) + b"\xFF\x2F\x00"
        mid = os.path.join(self.work, "notes.mid")
        with open(mid, "wb") as f:
            f.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480) + b"MTrk" + struct.pack(">I", len(track)) + track)
        wav = os.path.join(self.work, "notes.wav")
        subprocess.run(["fluidsynth", "-ni", "-q", "-R", "0", "-C", "0", "-g", "1.0", "-r", str(SR),
                        "-O", "float", "-T", "wav", "-F", wav, self.soundfont, mid], check=True, capture_output=True)
        y = sox_read(wav)
        n = int(spacing * SR)
        for i, w in enumerate(todo):
            piece = y[i * n:(i + 1) * n]
            self.cache[(program,) + w] = np.trim_zeros(piece, "b").copy()

    def note(self, program, key, vel, dur):
        return self.cache[(program, key, vel, dur)]


class SynthKit:
    """A drum kit from a soundfont, played like `Kit`: instruments are General
    MIDI drum keys by name (`GM_DRUMS`), the velocity 0-1 becomes a MIDI
    velocity in steps of 8 (the soundfont's own layers and curve; no extra
    scaling). Every key and step is rendered at once, in one fluidsynth run."""

    def __init__(self, synth, program, keys):
        self.synth, self.program = synth, program
        self.keys = {name: GM_DRUMS[name] for name in keys}
        synth.notes(program, [(k, v, 1.0) for k in self.keys.values() for v in range(7, 128, 8)])

    def sample(self, instrument, velocity):
        v = max(7, min(127, 8 * round(velocity * 127 / 8) - 1))
        return self.synth.note(self.program, self.keys[instrument], v, 1.0)


GM_DRUMS = {"kick": 36, "side stick": 37, "snare": 38, "clap": 39, "closed hat": 42, "pedal hat": 44,
            "open hat": 46, "low tom": 45, "mid tom": 48, "high tom": 50, "floor tom": 41, "crash": 49,
            "ride": 51, "ride bell": 53, "tambourine": 54, "cowbell": 56, "high bongo": 60, "low bongo": 61,
            "mute conga": 62, "open conga": 63, "low conga": 64, "shaker": 82}


def varlen(v):
    out = [v & 0x7F]
    v >>= 7
    while v:
        out.append(0x80 | (v & 0x7F))
        v >>= 7
    return bytes(reversed(out))


# ---------- a piece ----------

class Piece:
    """A mono buffer with its truth: hits are placed by their -30 dB point."""

    def __init__(self, name, seconds, about):
        self.name, self.about = name, about
        self.n = int(seconds * SR)
        self.parts = {}
        self.x = np.zeros(self.n)
        self.onsets = []
        self.beats, self.downbeats, self.tempo = [], [], []
        self.has_beat = True

    def place(self, sound, t, gain=1.0, truth=True, part="main"):
        """Adds `sound` so that its -30 dB point lands on time `t` (seconds)."""
        buf = self.parts.setdefault(part, np.zeros(self.n))
        at = round(t * SR)
        start = at - onset_index(sound)
        lo, hi = max(0, start), min(self.n, start + len(sound))
        if hi <= lo:
            return
        buf[lo:hi] += gain * sound[lo - start:hi - start]
        if truth and at < self.n:
            self.onsets.append(at / SR)

    def mix(self, levels=None, peak_db=-1.0):
        """Sums the parts, each scaled to its RMS in dB relative to the others
        (levels: part -> dB; None keeps them as placed), then peaks at peak_db."""
        self.x = np.zeros(self.n)
        for name, buf in self.parts.items():
            g = 1.0
            if levels is not None:
                r = np.sqrt(np.mean(buf ** 2))
                g = 10 ** (levels[name] / 20) / r if r > 0 else 0
            self.x += g * buf
        self.normalise(peak_db)

    def grid(self, bpm, start, bars, first_bar=0):
        """Beats and downbeats of `bars` 4/4 bars at `bpm` from `start`; returns the beat length."""
        beat = 60.0 / bpm
        self.tempo.append({"from": round(start, 6), "bpm": bpm})
        for b in range(bars * 4):
            t = start + b * beat
            if t < len(self.x) / SR:
                self.beats.append(round(t * SR) / SR)
                if b % 4 == 0:
                    self.downbeats.append(round(t * SR) / SR)
        return beat

    def truth(self):
        merged = []
        for t in sorted(self.onsets):
            if not merged or t - merged[-1] >= MERGE:
                merged.append(t)
        return merged

    def normalise(self, peak_db=-1.0):
        p = np.abs(self.x).max()
        if p > 0:
            self.x *= 10 ** (peak_db / 20) / p

    def save(self, out):
        write_wav(os.path.join(out, self.name + ".wav"), self.x)
        onsets = self.truth()
        truth = {"piece": self.name, "about": self.about, "sampleRate": SR,
                 "duration": len(self.x) / SR, "convention": "hit alone reaches -30 dB of its peak; "
                 "hits within 30 ms merged at the earliest", "onsets": [round(t, 6) for t in onsets],
                 "hasBeat": self.has_beat, "tempo": self.tempo if self.has_beat else [],
                 "beats": self.beats if self.has_beat else [], "downbeats": self.downbeats if self.has_beat else []}
        tmp = os.path.join(out, self.name + ".truth.json.tmp")
        with open(tmp, "w") as f:
            json.dump(truth, f, indent=1)
        os.replace(tmp, os.path.join(out, self.name + ".truth.json"))
        with open(os.path.join(out, self.name + ".onsets"), "w") as f:
            f.writelines(f"{t:.6f}\n" for t in onsets)
        return len(onsets)


def human(seed, i, ms=4.0):
    """A timing offset of ±ms milliseconds."""
    return (uniform(seed, i) * 2 - 1) * ms / 1000


def vel(seed, i, v, spread=0.08):
    return max(0.05, min(1.0, v + (uniform(seed, 1_000_000 + i) * 2 - 1) * spread))


STEP_VELOCITY = {"X": 1.0, "x": 0.8, "o": 0.55, "g": 0.28, "h": 0.4}


def drums(piece, kit, bpm, start, bars, patterns, seed, gain_of_bar=lambda bar: 1.0, part="drums"):
    """Plays 16-step patterns (one string per instrument, any number of bars,
    cycled; X x o h g = velocities, . = rest) for `bars` bars from `start`."""
    step = 60.0 / bpm / 4
    i = 0
    for bar in range(bars):
        for inst, pat in patterns.items():
            for s in range(16):
                c = pat[(bar * 16 + s) % len(pat)]
                if c == ".":
                    continue
                i += 1
                t = start + (bar * 16 + s) * step + human(seed, i)
                v = vel(seed, i, STEP_VELOCITY[c])
                piece.place(kit.sample(inst, v), t, gain_of_bar(bar), part=part)


def notes(piece, synth, program, start, bpm, events, part, truth=True):
    """events: (step from start in 16ths, key, velocity 1..127, seconds)."""
    step = 60.0 / bpm / 4
    synth.notes(program, [(k, v, d) for _, k, v, d in events])
    for s, k, v, d in events:
        piece.place(synth.note(program, k, v, d), start + s * step, truth=truth, part=part)



def laptop(clean, name, music_db, drop, work):
    """The band through a laptop microphone: room reverb, 150 Hz - 7 kHz,
    pink room noise at -35 dBFS RMS, soft saturation of the peaks; music
    at `music_db` dBFS RMS, and
    `drop` = (from, to) seconds where the music is 20 dB quieter."""
    p = Piece(name, clean.n / SR, "")
    p.onsets, p.beats, p.downbeats, p.tempo = list(clean.onsets), clean.beats, clean.downbeats, clean.tempo
    x = clean.x.copy()
    env = np.ones(clean.n)
    if drop:
        a, b = (round(t * SR) for t in drop)
        ramp = round(0.05 * SR)
        env[a:b] = 0.1
        env[a:a + ramp] = np.linspace(1, 0.1, ramp)
        env[b:b + ramp] = np.linspace(0.1, 1, ramp)
    mic = ["highpass", "150", "highpass", "150", "lowpass", "7000", "lowpass", "7000"]
    music = sox_chain(x * env, ["reverb", "45", "50", "60", "100", "8", "-3"] + mic, work)
    loud = music[: round(drop[0] * SR)] if drop else music
    music *= 10 ** (music_db / 20) / np.sqrt(np.mean(loud ** 2))
    noise = sox_chain(pink_noise(81, clean.n) * 0.05, mic, work)
    noise *= 10 ** (-35 / 20) / np.sqrt(np.mean(noise ** 2))
    p.x = music + noise
    if np.abs(p.x).max() > 0.5:  # the microphone preamp saturates softly: peaks, not onsets, move
        p.x = 0.99 * np.tanh(p.x / 0.99)
    snr = music_db + 35
    who = "the band" if clean.name == "band" else clean.name
    p.about = (f"{who} through a laptop microphone chain: reverb, 150 Hz-7 kHz, pink noise -35 dBFS RMS, "
               f"music {music_db} dBFS RMS ({snr:.0f} dB over the noise)" +
               (f", 20 dB quieter from {drop[0]} to {drop[1]} s" if drop else ""))
    return p



CHORDS = {"Am": (45, [57, 60, 64]), "F": (41, [53, 57, 60]), "C": (48, [55, 60, 64]), "G": (43, [55, 59, 62])}
