"""Training audio for the onset network, from the TUNING sources only (the
Hydrogen kits below and FluidR3_GM; never a held-out kit or soundfont), with
exact truth (the convention of scripts/onset-eval-set) and augmentation: room
reverb, microphone band limits, EQ, noise at several levels, level drops,
compression, soft saturation, pitch (resampled samples) and tempo. Every
number comes from a seeded generator: the same seed gives the same audio.
"""
import os

import numpy as np

from onset_audio import KITS, SR, Kit, Piece, Synth, onset_index

TUNING_KITS = ["HardElectro1", "VariBreaks", "The Black Pearl 1.0", "ForzeeStereo", "Gimme A Hand 1.0",
               "Millo-Drums_v.1", "Millo_MultiLayered2", "Millo_MultiLayered3", "Audiophob"]
ROLES = {"kick": ("kick", "bass drum", "bassdrum", "thump"), "snare": ("snare", "clap", "stick", "slap", "rim"),
         "hat": ("hh", "hat", "shaker", "tamb"), "cymbal": ("ride", "crash", "cym", "china", "splash"),
         "tom": ("tom", "conga", "bongo", "cowbell", "perc")}
# FluidR3_GM programs: (program, keys, has an onset). Slow-attack ones carry no truth.
MELODIC = [(0, range(36, 86, 3), True), (4, range(40, 84, 4), True), (11, range(55, 85, 4), True),
           (12, range(50, 85, 4), True), (24, range(40, 76, 3), True), (25, range(40, 76, 3), True),
           (27, range(40, 76, 4), True), (33, range(28, 52, 2), True), (38, range(28, 52, 2), True),
           (16, range(40, 80, 4), True), (80, range(48, 80, 4), True), (61, range(48, 76, 4), True),
           (48, range(40, 80, 4), False), (89, range(40, 80, 4), False), (52, range(48, 76, 4), False)]
GM_KITS = [128, 136, 144, 152, 153, 160, 168]  # standard, room, power, electronic, TR-808, jazz, brush
GM_KEYS = {"kick": [35, 36], "snare": [38, 40, 37, 39], "hat": [42, 44, 46, 70], "cymbal": [49, 51, 57, 53],
           "tom": [41, 45, 48, 50, 60, 62, 63]}
VELS = (30, 55, 80, 110)


class Bank:
    """Every sound a training piece may use, rendered once."""

    def __init__(self, work):
        self.kits = []
        for name in TUNING_KITS:
            if not os.path.exists(os.path.join(KITS, name)):
                continue
            kit = Kit(name)
            whole = [i for i, layers in kit.instruments.items()  # Debian leaves some samples out
                     if all(os.path.exists(os.path.join(kit.dir, f)) for _, _, f in layers)]
            roles = {r: [i for i in whole if any(w in i.lower() for w in words)] for r, words in ROLES.items()}
            self.kits.append((kit, {r: v for r, v in roles.items() if v}))
        strums = os.path.join(KITS, "belofilms_GuitarStrums")
        self.strums = Kit("belofilms_GuitarStrums") if os.path.exists(strums) else None
        self.synth = Synth(work)
        for prog, keys, _ in MELODIC:
            self.synth.notes(prog, [(k, v, d) for k in keys for v in VELS for d in (0.25, 0.8)])
        for kit in GM_KITS:
            self.synth.notes(kit, [(k, v, 1.0) for ks in GM_KEYS.values() for k in ks for v in VELS])


def resample(x, factor):
    """x played `factor` times faster (pitch up by that ratio)."""
    if abs(factor - 1) < 1e-6:
        return x
    n = int(len(x) / factor)
    return np.interp(np.arange(n) * factor, np.arange(len(x)), x)


def drum_part(p, bank, rng, bpm, start, bars, gain):
    """A random groove: per role a 16-step pattern, velocities with ghosts, from one kit."""
    step = 60 / bpm / 4
    if rng.random() < 0.6:
        kit, roles = bank.kits[rng.integers(len(bank.kits))]
        play = lambda role, v: kit.sample(roles[role][rng.integers(len(roles[role]))], v)
        have = list(roles)
    else:
        prog = GM_KITS[rng.integers(len(GM_KITS))]
        play = lambda role, v: bank.synth.note(prog, GM_KEYS[role][rng.integers(len(GM_KEYS[role]))],
                                               VELS[min(3, int(v * 4))], 1.0)
        have = list(GM_KEYS)
    density = {"kick": 0.25, "snare": 0.2, "hat": 0.6, "cymbal": 0.08, "tom": 0.1}
    pitch = 2 ** (rng.uniform(-2, 2) / 12)
    for role in have:
        if rng.random() < 0.25:
            continue
        pat = [(rng.random() < density[role]) for _ in range(16 * (1 + rng.integers(2)))]
        vels = [rng.uniform(0.15, 1.0) for _ in pat]
        for b in range(bars):
            for s in range(16):
                k = (b * 16 + s) % len(pat)
                if pat[k]:
                    t = start + (b * 16 + s) * step + rng.uniform(-0.006, 0.006)
                    p.place(resample(play(role, vels[k]), pitch), t, gain * vels[k], part="drums")


def melodic_part(p, bank, rng, bpm, start, bars, name):
    prog, keys, truth = MELODIC[rng.integers(len(MELODIC))]
    step = 60 / bpm / 4
    keys = list(keys)
    per_bar = [0, 8] if not truth else sorted(set(rng.integers(0, 16, rng.integers(1, 7)).tolist()))
    chord = 1 + (rng.random() < 0.4) * rng.integers(1, 3)
    for b in range(bars):
        base = rng.integers(len(keys))
        for s in per_bar:
            v = VELS[rng.integers(len(VELS))]
            d = 0.8 if not truth or rng.random() < 0.3 else 0.25
            t = start + (b * 16 + s) * step + rng.uniform(-0.004, 0.004)
            for c in range(chord):
                k = keys[min(len(keys) - 1, base + 2 * c)]
                p.place(bank.synth.note(prog, k, v, d), t + 0.004 * c * rng.random(), truth=truth, part=name)


def strum_part(p, bank, rng, bpm, start, bars):
    files = [f for f in os.listdir(bank.strums.dir) if f.endswith(".flac")]
    step = 60 / bpm / 4
    for b in range(bars):
        for s in (0, 4, 6, 10, 12, 14):
            if rng.random() < 0.75:
                x = bank.strums.file(files[rng.integers(len(files))]) * rng.uniform(0.3, 1.0)
                p.place(x, start + (b * 16 + s) * step + rng.uniform(-0.005, 0.005), part="strums")


def fft_filter(x, gain_of_hz):
    X = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / SR)
    return np.fft.irfft(X * gain_of_hz(f), len(x))


def augment(x, rng):
    """The room, the microphone and the level a detector may meet."""
    n = len(x)
    if rng.random() < 0.5:  # room reverb: a decaying noise tail behind the direct sound
        rt = rng.uniform(0.15, 1.2)
        m = int(rt * SR)
        ir = rng.standard_normal(m) * np.exp(-6.9 * np.arange(m) / m)
        ir[: int(rng.uniform(0.002, 0.02) * SR)] = 0
        wet = np.fft.irfft(np.fft.rfft(np.concatenate([x, np.zeros(m)])) * np.fft.rfft(ir, n + m), n + m)[:n]
        x = x + rng.uniform(0.1, 0.6) * wet * np.sqrt(np.mean(x ** 2) / max(1e-12, np.mean(wet ** 2)))
    if rng.random() < 0.6:  # EQ: a smooth random curve over log frequency, +-8 dB
        pts = rng.uniform(-8, 8, 6)
        x = fft_filter(x, lambda f: 10 ** (np.interp(np.log2(np.maximum(f, 20) / 20), np.linspace(0, 10, 6), pts) / 20))
    if rng.random() < 0.4:  # a microphone's band
        lo, hi = rng.uniform(80, 300), rng.uniform(3500, 12000)
        x = fft_filter(x, lambda f: 1 / np.sqrt(1 + (lo / np.maximum(f, 1)) ** 4) / np.sqrt(1 + (f / hi) ** 4))
    if rng.random() < 0.3:  # level drops
        env = np.ones(n)
        a = rng.integers(0, n // 2)
        b = min(n, a + int(rng.uniform(2, 8) * SR))
        env[a:b] = 10 ** (-rng.uniform(8, 25) / 20)
        x = x * np.convolve(env, np.ones(2400) / 2400, "same")
    x = x / max(1e-9, np.sqrt(np.mean(x ** 2)))
    if rng.random() < 0.35:  # compression: 5-ms block gain above a threshold, ratio 2-6
        blk = 240
        m = n // blk * blk
        rms = np.sqrt(np.mean(x[:m].reshape(-1, blk) ** 2, axis=1) + 1e-12)
        db = 20 * np.log10(rms)
        th, ratio = rng.uniform(-6, 6), rng.uniform(2, 6)
        g = np.where(db > th, (th + (db - th) / ratio) - db, 0)
        g = np.convolve(g, np.ones(4) / 4, "same")
        x[:m] *= np.repeat(10 ** (g / 20), blk)
    level = rng.uniform(-45, -8)
    x = x * 10 ** (level / 20)
    if rng.random() < 0.6:  # room noise: white, pink or brown, 0-40 dB under the music
        shape = rng.integers(3)
        w = rng.standard_normal(n)
        if shape:
            w = fft_filter(w, lambda f: np.where(f > 20, (np.maximum(f, 20) / 1000) ** (-0.5 * shape), 0))
        w *= 10 ** ((level - rng.uniform(0, 40)) / 20) / np.sqrt(np.mean(w ** 2))
        x = x + w
    if rng.random() < 0.3:
        x = np.tanh(x * rng.uniform(1, 4)) / rng.uniform(1, 4)
    return x.astype(np.float32)


def piece(bank, seed, seconds=16.0):
    """One training piece: (audio float32, truth onset times)."""
    rng = np.random.default_rng(seed)
    p = Piece(f"train-{seed}", seconds, "")
    bpm = rng.uniform(70, 180)
    start = rng.uniform(0.05, 1.0)
    bars = int((seconds - start) / (240 / bpm)) + 1
    kind = rng.random()
    if kind < 0.75:
        drum_part(p, bank, rng, bpm, start, bars, 1.0)
    for i in range(rng.integers(0 if kind < 0.75 else 1, 3)):
        melodic_part(p, bank, rng, bpm, start, bars, f"m{i}")
    if bank.strums and rng.random() < 0.15:
        strum_part(p, bank, rng, bpm, start, bars)
    if not p.parts:
        melodic_part(p, bank, rng, bpm, start, bars, "m")
    levels = {name: rng.uniform(-12, 0) for name in p.parts}
    p.mix(levels)
    return augment(p.x, rng), np.array(p.truth())


__all__ = ["Bank", "piece", "onset_index"]
