"""The tuning set: pieces built only from the tuning sources (the Hydrogen kits
HardElectro1, VariBreaks, The Black Pearl 1.0, ForzeeStereo,
belofilms_GuitarStrums, Gimme A Hand 1.0, and FluidR3_GM). Defaults are
chosen on these; the held-out set (onset_heldout.py) is only ever reported.
"""
import numpy as np

from onset_audio import CHORDS, Kit, Piece, Synth, drums, human, laptop, notes, vel


def four_floor():
    p = Piece("four-floor", 30, "124 BPM electronic groove: kick on every beat, claps, offbeat hats, soft 16th hats from bar 5, open hats")
    kit = Kit("HardElectro1")
    bpm, start, bars = 124, 0.5, 15
    p.grid(bpm, start, bars)
    drums(p, kit, bpm, start, bars, {"Kick 1": "X...X...X...X...", "Clap 1": "....x.......x...",
                                     "Closed HH 1": "..x...x...x...x...x...x...x....."}, 11)
    drums(p, kit, bpm, start, bars, {"Open HH": "." * 30 + "o."}, 12)
    drums(p, kit, bpm, start + 4 * 4 * 60 / bpm, bars - 4, {"Closed HH 2": ".g.g.g.g.g.g.g.g"}, 13)
    p.mix()
    return p


def breakbeat():
    p = Piece("breakbeat", 30, "172 BPM breakbeat (two-bar pattern) with ghost snares and 8th hats")
    kit = Kit("VariBreaks")
    bpm, start, bars = 172, 0.4, 21
    p.grid(bpm, start, bars)
    drums(p, kit, bpm, start, bars, {
        "VariBreaks Kick 1": "X.X.......X.......XX......X.....",
        "VariBreaks Snare 1": "....X.......X.......X.........X.",
        "VariBreaks Snare 2": ".......g.g....g........g.g..g...",
        "VariBreaks Hat 1 Cl": "o.o.o.o.o.o.o.o."}, 21)
    p.mix()
    return p


def sparse_acoustic():
    p = Piece("sparse-acoustic", 30, "84 BPM acoustic kit, sparse; bars 5-7 a very soft passage (-20 dB, soft layers, side stick); crashes; a tom fill")
    kit = Kit("The Black Pearl 1.0")
    bpm, start, bars = 84, 0.5, 10
    p.grid(bpm, start, bars)
    bar = 4 * 60.0 / bpm
    loud = {"Pearl Kick": "X.......x.......", "Pearl Snare": "....X.......X...", "Sabian Hat Closed": "o...o...o...o..."}
    drums(p, kit, bpm, start, 4, loud, 31)
    drums(p, kit, bpm, start, 1, {"Sabian Crash": "X..............."}, 32)
    soft = {"Pearl Kick": "h...............", "Pearl Side Stick": "....h.......h...", "Sabian Hat Closed": "g.g.g.g.g.g.g.g."}
    drums(p, kit, bpm, start + 4 * bar, 3, soft, 33, gain_of_bar=lambda b: 0.1)
    drums(p, kit, bpm, start + 7 * bar, 3, loud, 34)
    drums(p, kit, bpm, start + 7 * bar, 1, {"Sabian Crash": "X..............."}, 35)
    drums(p, kit, bpm, start + 9 * bar, 1, {"Pearl Tom 1": "........x.x.....", "Pearl Tom Floor": "............x.X."}, 36)
    p.mix()
    return p




def band_parts(p, synth, bpm, start, bars):
    kit = Kit("ForzeeStereo")
    drums(p, kit, bpm, start, bars, {"Kick": "X.......X.x.....", "Snare (": "....X.......X...",
                                     "Hi-Hat Closed": "o.o.o.o.o.o.o.o."}, 41)
    bar_s = 4 * 60.0 / bpm
    order = ["Am", "F", "C", "G"]
    bass, piano, pad = [], [], []
    for b in range(bars):
        root, triad = CHORDS[order[b % 4]]
        for s, dur in ((0, 0.3), (6, 0.15), (8, 0.3), (11, 0.15)):
            bass.append((b * 16 + s, root - 12 + (12 if s == 11 else 0), 96, dur))
        for s in (3, 14):
            piano += [(b * 16 + s, k, 72 if s == 3 else 58, 0.3) for k in triad]
        pad += [(b * 16, k, 70, round(bar_s - 0.05, 3)) for k in [root + 12] + triad]
    notes(p, synth, 33, start, bpm, bass, "bass")
    notes(p, synth, 0, start, bpm, piano, "piano")
    notes(p, synth, 89, start, bpm, pad, "pad", truth=False)
    return {"drums": 0, "bass": -3, "piano": -5, "pad": -9}


def band(synth):
    p = Piece("band", 30, "110 BPM band: drums, fingered bass, piano stabs between the beats, warm pad (Am F C G)")
    bpm, start, bars = 110, 0.5, 13
    p.grid(bpm, start, bars)
    p.mix(band_parts(p, synth, bpm, start, bars))
    return p


STRUMS = ["Aminor", "Fmajor", "Gmajor", "Eminor"]


def guitar_cajon():
    p = Piece("guitar-cajon", 30, "96 BPM acoustic guitar strums (down/up, three layers) with cajon thumps, slaps and ghost slaps")
    guitar, hand = Kit("belofilms_GuitarStrums"), Kit("Gimme A Hand 1.0")
    bpm, start, bars = 96, 0.5, 11
    p.grid(bpm, start, bars)
    step = 60.0 / bpm / 4
    i = 0
    for b in range(bars):
        chord = STRUMS[b % 4]
        for s, way, v in ((0, "DOWN", 0.95), (4, "DOWN", 0.7), (6, "UP", 0.5), (10, "UP", 0.5), (12, "DOWN", 0.7), (14, "UP", 0.45)):
            i += 1
            v = vel(51, i, v, 0.05)
            layer = "01" if v >= 0.8 else "02" if v >= 0.55 else "03"
            p.place(guitar.file(f"{chord}_{way}_{layer}.flac") * v, start + (b * 16 + s) * step + human(51, i), part="guitar")
    drums(p, hand, bpm, start, bars, {"Cajon Thump": "X.......x.......", "Cajon Slap": "....x..g....x..g"}, 52, part="cajon")
    p.mix({"guitar": 0, "cajon": -2})
    return p


def piano_strings(synth):
    p = Piece("piano-strings", 30, "72 BPM piano (soft left hand on every beat, melody above) and sustained strings; no drums")
    p.has_beat = False
    bpm, start, bars = 72, 0.5, 9
    p.grid(bpm, start, bars)
    order = ["C", "Am", "F", "G"]
    melody = [76, 79, 77, 76, 74, 72, 74, 76, 72, 71, 72, 74]
    left, right, strings = [], [], []
    m = 0
    bar_s = 4 * 60.0 / bpm
    for b in range(bars):
        root, triad = CHORDS[order[b % 4]]
        for beat, k in enumerate([root - 12, root - 5, root, root - 5]):
            left.append((b * 16 + beat * 4, k, 34 + 4 * (beat == 0), 0.7))
        for s in (0, 6, 8, 12):
            right.append((b * 16 + s, melody[m % len(melody)], 70 if s in (0, 8) else 56, 0.6))
            m += 1
        strings += [(b * 16, k, 64, round(bar_s - 0.05, 3)) for k in triad]
    notes(p, synth, 0, start, bpm, left, "left")
    notes(p, synth, 0, start, bpm, right, "right")
    notes(p, synth, 48, start, bpm, strings, "strings", truth=False)
    p.mix({"left": -6, "right": 0, "strings": -6})
    return p


def dynamics():
    p = Piece("dynamics", 30, "100 BPM acoustic groove in four 3-bar sections peaking at 0, -40, -30 and 0 dBFS")
    kit = Kit("The Black Pearl 1.0")
    bpm, start = 100, 0.5
    bar = 4 * 60.0 / bpm
    p.grid(bpm, start, 12)
    groove = {"Pearl Kick": "X.......X.x.....", "Pearl Snare": "....X.......X...", "Sabian Hat Closed": "o.o.o.o.o.o.o.o."}
    for sec in range(4):
        drums(p, kit, bpm, start + 3 * sec * bar, 3, groove, 61 + sec, part=f"s{sec}")
    ref = np.abs(p.parts["s0"]).max()
    for sec, db in enumerate((0, -40, -30, 0)):
        p.parts[f"s{sec}"] *= 10 ** ((db - 0.5) / 20) / ref
    p.mix(None, peak_db=0)
    p.x *= 10 ** (-0.5 / 20)
    return p


def tempo_change():
    p = Piece("tempo-change", 32, "electronic groove: 8 bars at 120 BPM, then 128 BPM")
    kit = Kit("HardElectro1")
    groove = {"Kick 1": "X...X...X...X...", "Clap 1": "....x.......x...", "Closed HH 1": "..x...x...x...x."}
    start = 0.5
    p.grid(120, start, 8)
    drums(p, kit, 120, start, 8, groove, 71)
    t1 = start + 8 * 2.0
    p.grid(128, t1, 8)
    drums(p, kit, 128, t1, 8, groove, 72)
    p.mix()
    return p



VARIED = ("four-floor", "breakbeat", "sparse-acoustic", "guitar-cajon", "piano-strings")



def pieces(work):
    """The tuning pieces, in table order."""
    synth = Synth(work)
    b = band(synth)
    return [four_floor(), breakbeat(), sparse_acoustic(), b, guitar_cajon(), piano_strings(synth),
            dynamics(), tempo_change(),
            laptop(b, "laptop-band", -16, (12, 20), work), laptop(b, "laptop-band-quiet", -29, None, work)]
