"""The held-out set: the same musical situations as the tuning set, built only
from sources that no default, threshold or network weight was ever fitted to:
the Hydrogen kits ElectricEmpireKit, rumpf_kit_z01_h2, BJA_Pacific,
ColomboAcousticDrumkit and circAfrique v4, the AVL drum kits
(avldrums.lv2-soundfont: Red Zeppelin), MuseScore General
(musescore-general-soundfont) and TimGM6mb (timgm6mb-soundfont). Its table is
reported, never tuned on.
"""
import numpy as np

from onset_audio import CHORDS, SR, Kit, Piece, Synth, SynthKit, drums, human, laptop, notes, vel

MUSESCORE = "/usr/share/sounds/sf3/MuseScore_General_Full.sf3"
TIMGM = "/usr/share/sounds/sf2/TimGM6mb.sf2"
AVL_RED = "/usr/share/sounds/sf2/Red_Zeppelin_4_LV2.sf2"
NEEDED = (MUSESCORE, TIMGM, AVL_RED, "/usr/share/hydrogen/data/drumkits/ElectricEmpireKit")


def house(work):
    p = Piece("house", 30, "126 BPM house: kick on every beat, clap, soft closed hats between the kicks and "
              "softer 16ths from bar 5, open hat, an off-beat synth bass on A F C G (ElectricEmpireKit, TimGM6mb)")
    kit = Kit("ElectricEmpireKit")
    bpm, start, bars = 126, 0.45, 15
    p.grid(bpm, start, bars)
    drums(p, kit, bpm, start, bars, {"Kick Hard 1": "X...X...X...X...", "Clap": "....x.......x...",
                                     "Hat Closed Bs": "..o...o...o...o."}, 111)
    drums(p, kit, bpm, start, bars, {"Hat Op Dirty": "." * 30 + "o."}, 112)
    drums(p, kit, bpm, start + 16 * 60 / bpm, bars - 4, {"Hat Closed Dirty": ".g.g.g.g.g.g.g.g"}, 113)
    synth = Synth(work, TIMGM)
    roots = (33, 29, 36, 31)  # A F C G, a bar each
    line = [(b * 16 + s, roots[b % 4] + o, 100, 0.18) for b in range(bars) for s, o in ((2, 0), (6, 0), (10, 12), (14, 7))]
    notes(p, synth, 38, start, bpm, line, "bass")
    p.mix({"drums": 0, "bass": -6})
    return p


def breakbeat():
    p = Piece("breakbeat", 30, "174 BPM two-bar break with ghost snares and 8th hats (rumpf_kit_z01_h2)")
    kit = Kit("rumpf_kit_z01_h2")
    bpm, start, bars = 174, 0.35, 21
    p.grid(bpm, start, bars)
    drums(p, kit, bpm, start, bars, {
        "c3 - bass drum 1": "X.X.......X.......X.X.....X.....",
        "d3 - snare 1": "....X.......X.......X.........X.",
        "e3 - snare 2": "......g..g....g........g.g...g..",
        "f#3 - hi-hat closed": "o.o.o.o.o.o.o.o."}, 121)
    p.mix()
    return p


def sparse_ride(work):
    p = Piece("sparse-ride", 30, "88 BPM sparse acoustic kit with a ride cymbal; bars 5-7 very soft (-20 dB, side "
              "stick, soft ride); crashes; a tom fill (AVL Red Zeppelin)")
    kit = SynthKit(Synth(work, AVL_RED), 0, ["kick", "snare", "side stick", "ride", "crash", "high tom", "floor tom"])
    bpm, start, bars = 88, 0.5, 10
    p.grid(bpm, start, bars)
    bar = 4 * 60.0 / bpm
    loud = {"kick": "X.......x.......", "snare": "....X.......X...", "ride": "o.o.o.o.o.o.o.o."}
    drums(p, kit, bpm, start, 4, loud, 131)
    drums(p, kit, bpm, start, 1, {"crash": "X..............."}, 132)
    soft = {"kick": "h...............", "side stick": "....h.......h...", "ride": "g...g...g...g..."}
    drums(p, kit, bpm, start + 4 * bar, 3, soft, 133, gain_of_bar=lambda b: 0.1)
    drums(p, kit, bpm, start + 7 * bar, 3, loud, 134)
    drums(p, kit, bpm, start + 7 * bar, 1, {"crash": "X..............."}, 135)
    drums(p, kit, bpm, start + 9 * bar, 1, {"high tom": "........x.x.....", "floor tom": "............x.X."}, 136)
    p.mix()
    return p


def band(work):
    p = Piece("band", 30, "104 BPM band: drums, fingered bass, piano stabs between the beats, warm pad, "
              "Dm Bb F C (BJA_Pacific, MuseScore General)")
    kit = Kit("BJA_Pacific")
    bpm, start, bars = 104, 0.5, 13
    p.grid(bpm, start, bars)
    drums(p, kit, bpm, start, bars, {"BassDrum": "X.......X..x....", "Snare": "....X.......X...",
                                     "Hi Hat Closed": "o.o.o.o.o.o.o.o."}, 141)
    synth = Synth(work, MUSESCORE)
    chords = [(38, [62, 65, 69]), (46, [58, 62, 65]), (41, [57, 60, 65]), (48, [55, 60, 64])]
    bar_s = 4 * 60.0 / bpm
    bass, piano, pad = [], [], []
    for b in range(bars):
        root, triad = chords[b % 4]
        for s, dur in ((0, 0.3), (7, 0.15), (8, 0.3), (10, 0.15)):
            bass.append((b * 16 + s, root - 12 + (12 if s == 10 else 0), 92, dur))
        for s in (2, 14):
            piano += [(b * 16 + s, k, 70 if s == 2 else 56, 0.3) for k in triad]
        pad += [(b * 16, k, 70, round(bar_s - 0.05, 3)) for k in [root + 12] + triad]
    notes(p, synth, 33, start, bpm, bass, "bass")
    notes(p, synth, 0, start, bpm, piano, "piano")
    notes(p, synth, 89, start, bpm, pad, "pad", truth=False)
    p.mix({"drums": 0, "bass": -3, "piano": -5, "pad": -9})
    return p


GUITAR_CHORDS = [[40, 47, 52, 55, 59, 64], [45, 52, 57, 60, 64], [43, 47, 50, 55, 59, 67], [48, 52, 55, 60, 64]]


def guitar_percussion(work):
    p = Piece("guitar-percussion", 30, "92 BPM steel-string guitar strums (strings 5 ms apart: one onset, down and up) with "
              "djembe bass, tones and soft slaps (MuseScore General, circAfrique v4)")
    synth = Synth(work, MUSESCORE)
    bpm, start, bars = 92, 0.5, 11
    p.grid(bpm, start, bars)
    step = 60.0 / bpm / 4
    strums = []
    i = 0
    for b in range(bars):
        chord = GUITAR_CHORDS[b % 4]
        for s, down, v in ((0, True, 100), (4, True, 80), (6, False, 62), (10, False, 62), (12, True, 80), (14, False, 56)):
            i += 1
            t = start + (b * 16 + s) * step + human(151, i)
            order = chord if down else chord[::-1]
            strums += [(t + j * 0.005, k, max(30, v - 3 * j), 0.4) for j, k in enumerate(order)]
    synth.notes(25, [(k, v, d) for _, k, v, d in strums])
    for t, k, v, d in strums:
        p.place(synth.note(25, k, v, d), t, part="guitar")
    hand = Kit("circAfrique v4")
    drums(p, hand, bpm, start, bars, {"Djembe1 Bass": "X.......x.......", "Djembe1 Tone": "....x......x....",
                                      "Djembe1 Slap": "......g.......g."}, 152, part="djembe")
    p.mix({"guitar": 0, "djembe": -2})
    return p


def piano_strings(work):
    p = Piece("piano-strings", 30, "66 BPM piano (soft left hand on every beat, melody above) and sustained "
              "strings; no drums (MuseScore General)")
    p.has_beat = False
    synth = Synth(work, MUSESCORE)
    bpm, start, bars = 66, 0.5, 8
    p.grid(bpm, start, bars)
    order = ["Am", "F", "C", "G"]
    melody = [72, 76, 74, 72, 71, 69, 71, 72, 76, 74, 72, 71]
    left, right, strings = [], [], []
    bar_s = 4 * 60.0 / bpm
    m = 0
    for b in range(bars):
        root, triad = CHORDS[order[b % 4]]
        for beat, k in enumerate([root - 12, root - 5, root, root + 4]):
            left.append((b * 16 + beat * 4, k, 36 + 4 * (beat == 0), 0.7))
        for s in (0, 4, 10, 12):
            right.append((b * 16 + s, melody[m % len(melody)], 68 if s in (0, 12) else 54, 0.6))
            m += 1
        strings += [(b * 16, k, 64, round(bar_s - 0.05, 3)) for k in triad]
    notes(p, synth, 0, start, bpm, left, "left")
    notes(p, synth, 0, start, bpm, right, "right")
    notes(p, synth, 48, start, bpm, strings, "strings", truth=False)
    p.mix({"left": -6, "right": 0, "strings": -6})
    return p


def dynamics():
    p = Piece("dynamics", 30, "96 BPM acoustic groove in four 3-bar sections peaking at 0, -40, -30 and 0 dBFS "
              "(ColomboAcousticDrumkit)")
    kit = Kit("ColomboAcousticDrumkit")
    bpm, start = 96, 0.5
    bar = 4 * 60.0 / bpm
    p.grid(bpm, start, 12)
    groove = {"BassDrum": "X.......X.x.....", "Snare1": "....X.......X...", "Closed HH": "o.o.o.o.o.o.o.o."}
    for sec in range(4):
        drums(p, kit, bpm, start + 3 * sec * bar, 3, groove, 161 + sec, part=f"s{sec}")
    ref = np.abs(p.parts["s0"]).max()
    for sec, db in enumerate((0, -40, -30, 0)):
        p.parts[f"s{sec}"] *= 10 ** ((db - 0.5) / 20) / ref
    p.mix(None, peak_db=0)
    p.x *= 10 ** (-0.5 / 20)
    return p


def pieces(work):
    """The held-out pieces, in table order."""
    b = band(work)
    return [house(work), breakbeat(), sparse_ride(work), b, guitar_percussion(work), piano_strings(work),
            dynamics(), laptop(b, "laptop-band", -16, (12, 20), work), laptop(b, "laptop-band-quiet", -29, None, work)]
