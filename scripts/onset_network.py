"""The onset network's input, shape and weights file, as the analysis computes
them (Sources/AudioReactive/Analysis/OnsetNetwork*.swift): the same bands, the
same floor tracker, the same layers. Training and evaluation tooling only.

Input per hop (128 samples at 48 kHz): the short window's (1024-point periodic
Hann, power scaled so a full-scale sine reads 0 dBFS) power summed in BANDS
groups about a sixth of an octave wide from LOW_HZ to HIGH_HZ, in dB
(10 log10(p + 1e-9)); and each band's height over its floor, a tracker that
follows a fall at once and a rise at FLOOR_RISE dB per second. Both /20.

Layers: causal dilated 1-D convolutions over hops (ReLU), then one linear
output and a sigmoid: the probability that an onset's sound has just arrived.

Weights file (configs/onset/onset-network.weights):
    line 1  `physarum-onset-network 1`
    line 2  JSON: {"bands", "lowHz", "highHz", "floorRise", "layers": [{"in", "out", "kernel",
            "dilation"}], "threshold", "floats", "fnv1a64"}
    then    `floats` little-endian float32: per layer its weights [out][in][kernel]
            (kernel index 0 = the oldest hop) then its biases [out]; the output's
            weights [in] and bias.
fnv1a64 is the 64-bit FNV-1a hash of those bytes, as 16 hex digits.
"""
import json
import struct

import numpy as np

SR = 48000
HOP = 128
WINDOW = 1024
LOW_HZ = 30.0
HIGH_HZ = 16000.0
PER_OCTAVE = 6.0
FLOOR_RISE = 10.0  # dB per second
EPS = 1e-9
MAGIC = "physarum-onset-network 1"


def band_bins(rate=SR, n=WINDOW):
    """(lo, hi) bin ranges of the bands, as OnsetNetworkBands computes them."""
    width = rate / n
    k = max(1, int(np.ceil(LOW_HZ / width)))
    kmax = min(n // 2 + 1, int(np.ceil(HIGH_HZ / width)))
    step = 2 ** (1 / PER_OCTAVE) - 1
    out = []
    while k < kmax:
        w = max(1, int(np.floor(k * step + 0.5)))
        hi = min(kmax, k + w)
        out.append((k, hi))
        k = hi
    return out


def band_db(x, rate=SR):
    """Per hop (ending at samples HOP-1, 2 HOP-1, ...) the bands' dB: shape (hops, bands), float32 maths."""
    x = np.asarray(x, dtype=np.float32)
    hops = len(x) // HOP
    padded = np.concatenate([np.zeros(WINDOW, np.float32), x])
    i = np.arange(WINDOW)
    w = (0.5 - 0.5 * np.cos(2 * np.pi * i / WINDOW)).astype(np.float64)
    scale = 4 / (WINDOW * np.sum(w * w))
    bins = band_bins(rate)
    out = np.empty((hops, len(bins)), np.float32)
    edges = np.array([lo for lo, _ in bins] + [bins[-1][1]])
    for a in range(0, hops, 4096):
        b = min(hops, a + 4096)
        ends = (np.arange(a, b) + 1) * HOP + WINDOW  # exclusive end in `padded`
        frames = padded[ends[:, None] - WINDOW + i[None, :]] * w.astype(np.float32)
        p = np.abs(np.fft.rfft(frames.astype(np.float64), axis=1)) ** 2
        c = np.cumsum(p[:, :edges[-1]], axis=1)
        c = np.concatenate([np.zeros((len(c), 1)), c], axis=1)
        s = c[:, edges[1:]] - c[:, edges[:-1]]
        out[a:b] = 10 * np.log10(s * scale + EPS)
    return out


def features(db, hop_seconds=HOP / SR):
    """The network's input (hops, 2 bands) from band dB: level / 20 and height over the floor / 20."""
    rise = np.float32(FLOOR_RISE * hop_seconds)
    floor = np.empty_like(db)
    f = db[0].copy()
    for t in range(len(db)):
        f = np.minimum(db[t], f + rise)
        floor[t] = f
    return np.concatenate([db / 20, (db - floor) / 20], axis=1).astype(np.float32)


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def write(path, layers, out_w, out_b, threshold):
    """layers: [(weight (out, in, kernel), bias (out,), dilation)]; writes atomically."""
    floats = []
    shape = []
    for w, b, d in layers:
        shape.append({"in": int(w.shape[1]), "out": int(w.shape[0]), "kernel": int(w.shape[2]), "dilation": int(d)})
        floats += [np.asarray(w, np.float32).ravel(), np.asarray(b, np.float32).ravel()]
    floats += [np.asarray(out_w, np.float32).ravel(), np.asarray(out_b, np.float32).ravel()]
    data = np.concatenate(floats).astype("<f4").tobytes()
    head = {"bands": len(band_bins()), "lowHz": LOW_HZ, "highHz": HIGH_HZ, "perOctave": PER_OCTAVE,
            "floorRise": FLOOR_RISE, "layers": shape, "threshold": round(float(threshold), 4),
            "floats": len(data) // 4, "fnv1a64": f"{fnv1a64(data):016x}"}
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write((MAGIC + "\n" + json.dumps(head, separators=(",", ":")) + "\n").encode() + data)
    import os
    os.replace(tmp, path)


def read(path):
    """(head, layers, out_w, out_b) from a weights file (checked like the analysis checks it)."""
    raw = open(path, "rb").read()
    a = raw.index(b"\n")
    b = raw.index(b"\n", a + 1)
    assert raw[:a].decode() == MAGIC
    head = json.loads(raw[a + 1:b])
    data = raw[b + 1:]
    assert len(data) == 4 * head["floats"] and f"{fnv1a64(data):016x}" == head["fnv1a64"]
    v = np.frombuffer(data, "<f4")
    pos, layers = 0, []
    for L in head["layers"]:
        n = L["out"] * L["in"] * L["kernel"]
        w = v[pos:pos + n].reshape(L["out"], L["in"], L["kernel"]); pos += n
        bias = v[pos:pos + L["out"]]; pos += L["out"]
        layers.append((w, bias, L["dilation"]))
    c = head["layers"][-1]["out"]
    out_w, out_b = v[pos:pos + c], v[pos + c:pos + c + 1]
    return head, layers, out_w, out_b


def infer(feat, layers, out_w, out_b):
    """Causal inference over a whole sequence (zeros before the start), float32: probability per hop."""
    h = feat.astype(np.float32)
    for w, b, d in layers:
        k = w.shape[2]
        pad = np.concatenate([np.zeros(((k - 1) * d, h.shape[1]), np.float32), h])
        y = np.zeros((len(h), w.shape[0]), np.float32) + b
        for j in range(k):
            y += pad[j * d:j * d + len(h)] @ w[:, :, j].T
        h = np.maximum(y, 0)
    z = h @ out_w + out_b[0]
    return 1 / (1 + np.exp(-z))


def pick(prob, threshold, hop_seconds=HOP / SR, rearm=0.5):
    """Hop indices where the network fires: an upward crossing of `threshold`,
    re-armed once the probability falls under `rearm` x threshold."""
    fired, armed = [], True
    for t, p in enumerate(prob):
        if armed and p >= threshold:
            fired.append(t)
            armed = False
        elif p < rearm * threshold:
            armed = True
    return fired
