"""The onset network's input, shape and weights file, as the analysis uses them
(Sources/AudioReactive/Analysis/OnsetNetwork*.swift). Training and evaluation
tooling only.

Input per hop (128 samples at 48 kHz): computed by the analysis itself and
read back from `physarum analyze --onset-input FILE` (`analysis_input`), so
training sees exactly what the analysis computes live: per band (BANDS groups
about a sixth of an octave wide, 30 Hz - 16 kHz) its level, its height over a
slow floor and its flux (all in dB / 20), then DETECTOR values of the DSP
detector on that hop (OnsetNetworkInput.DetectorState: its broadband support,
whether it fired, what the fusion passed on, time since its last onset,
whether onsets are allowed (column ALLOWED), the level paths' rises and the
room's noise share).

Layers: causal dilated 1-D convolutions over hops (ReLU), then one linear
output and a sigmoid: the probability that an onset's sound has just arrived.

Weights file (configs/onset/onset-network.weights):
    line 1  `physarum-onset-network 2`
    line 2  JSON: {"bands", "lowHz", "highHz", "perOctave", "floorRise", "perBand", "detector",
            "layers": [{"in", "out", "kernel", "dilation"}], "threshold", "floats", "fnv1a64"}
    then    `floats` little-endian float32: per layer its weights [out][in][kernel]
            (kernel index 0 = the oldest hop) then its biases [out]; the output's
            weights [in] and bias.
fnv1a64 is the 64-bit FNV-1a hash of those bytes, as 16 hex digits.
"""
import json
import os
import subprocess
import tempfile

import numpy as np

SR = 48000
HOP = 128
BANDS = 40
LOW_HZ = 30.0
HIGH_HZ = 16000.0
PER_OCTAVE = 6.0
FLOOR_RISE = 10.0  # dB per second
PER_BAND = 3
DETECTOR = 8
INPUTS = PER_BAND * BANDS + DETECTOR
ALLOWED = PER_BAND * BANDS + 4
MAGIC = "physarum-onset-network 2"
INPUT_MAGIC = b"physarum-onset-input "


def read_input(path):
    """(hops, INPUTS) float32 from a file written by `physarum analyze --onset-input`."""
    raw = open(path, "rb").read()
    a = raw.index(b"\n")
    assert raw.startswith(INPUT_MAGIC), path
    n = int(raw[len(INPUT_MAGIC):a])
    assert n == INPUTS, f"{path}: {n} inputs per hop, this script knows {INPUTS}"
    return np.frombuffer(raw[a + 1:], "<f4").reshape(-1, n)


def analysis_input(wav, physarum, candidates):
    """The network's input for every hop of `wav`, from the analysis itself (the DSP detector alone)."""
    with tempfile.TemporaryDirectory(prefix="onset-input.") as tmp:
        out = os.path.join(tmp, "input.f32")
        extra = [] if candidates is None else ["--onset-candidates", str(candidates)]
        subprocess.run([physarum, "analyze", "--file", wav, "--onset-network", "off", "--onset-input", out] + extra,
                       check=True, stdout=subprocess.DEVNULL)
        return read_input(out).copy()


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def write(path, layers, out_w, out_b, threshold, candidates):
    """layers: [(weight (out, in, kernel), bias (out,), dilation)]; writes atomically."""
    floats = []
    shape = []
    for w, b, d in layers:
        shape.append({"in": int(w.shape[1]), "out": int(w.shape[0]), "kernel": int(w.shape[2]), "dilation": int(d)})
        floats += [np.asarray(w, np.float32).ravel(), np.asarray(b, np.float32).ravel()]
    floats += [np.asarray(out_w, np.float32).ravel(), np.asarray(out_b, np.float32).ravel()]
    data = np.concatenate(floats).astype("<f4").tobytes()
    head = {"bands": BANDS, "lowHz": LOW_HZ, "highHz": HIGH_HZ, "perOctave": PER_OCTAVE,
            "floorRise": FLOOR_RISE, "perBand": PER_BAND, "detector": DETECTOR, "layers": shape, "threshold": round(float(threshold), 4),
            "floats": len(data) // 4, "fnv1a64": f"{fnv1a64(data):016x}"}
    if candidates is not None:  # the `full` detector's sensitivity when this network judges its onsets
        head["candidates"] = round(float(candidates), 4)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write((MAGIC + "\n" + json.dumps(head, separators=(",", ":")) + "\n").encode() + data)
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


def context(layers):
    """Hops the network's output looks back over (before that many, the analysis vetoes nothing)."""
    return 1 + sum((w.shape[2] - 1) * d for w, _, d in layers)


def veto(prob, feat, threshold, hops_of_context=0):
    """Hop indices of the analysis's onsets with the network: the DSP detector's onsets (its
    `fired` input) whose probability on that hop is at least `threshold` (all of them in the
    first `hops_of_context` hops, as Analyzer does)."""
    fired = feat[:, PER_BAND * BANDS + 1] > 0.5
    keep = prob >= threshold
    keep[:hops_of_context] = True
    return [int(t) for t in np.nonzero(fired & keep)[0]]
