#!/usr/bin/env python3
"""Sound -> picture latency of a window, measured from outside (scripts/latency-probe runs it).

Three things run at once against a private PulseAudio null sink and an Xvfb screen:
  - a player (pacat, 10 ms playback latency requested) writes silence in 5 ms chunks and,
    at known times, a 5 ms click;
  - a tap (parec, 2 ms fragments) records the sink's monitor, the path a visualiser
    capturing "what the machine plays" takes: each click's reference time is when its
    first sample reached the monitor (the arrival time of the tap's fragment, less the
    samples that follow it in the fragment);
  - a poller reads a region of the screen about 600 times a second (MIT-SHM, one
    server-side copy into shared memory) and keeps its mean brightness.
For each click, the latency is the first poll after the reference whose brightness rises
above the level before the click (median of the 300 ms before it, plus the larger of
`--rise` and 6 median absolute deviations). The tap's own fragment (<= 2 ms) makes every
figure up to that much low, for every target alike.

  latency-probe.py --out RESULTS.json [--clicks N] [--region X,Y,W,H] [--label NAME]
                   [--stats FILE] [--sink NAME]
Prints one line per click and a summary; writes the figures as JSON.
"""
import argparse, ctypes, ctypes.util, json, os, random, struct, subprocess, sys, threading, time

import numpy as np

RATE = 48000
CHUNK = 240  # 5 ms of playback per write


class XImage(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                ("format", ctypes.c_int), ("data", ctypes.c_void_p), ("byte_order", ctypes.c_int),
                ("bitmap_unit", ctypes.c_int), ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
                ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int)]


class ShmInfo(ctypes.Structure):
    _fields_ = [("shmseg", ctypes.c_ulong), ("shmid", ctypes.c_int), ("shmaddr", ctypes.c_void_p),
                ("readOnly", ctypes.c_int)]


class ScreenPoller:
    """Reads region (x, y, w, h) of the root window through MIT-SHM."""

    def __init__(self, region):
        self.x, self.y, self.w, self.h = region
        x11 = ctypes.CDLL("libX11.so.6")
        xext = ctypes.CDLL("libXext.so.6")
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XDefaultRootWindow.restype = ctypes.c_ulong
        x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        x11.XDefaultVisual.restype = ctypes.c_void_p
        x11.XDefaultVisual.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x11.XDefaultDepth.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        xext.XShmCreateImage.restype = ctypes.POINTER(XImage)
        xext.XShmCreateImage.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_void_p,
                                         ctypes.POINTER(ShmInfo), ctypes.c_uint, ctypes.c_uint]
        xext.XShmAttach.argtypes = [ctypes.c_void_p, ctypes.POINTER(ShmInfo)]
        xext.XShmGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(XImage), ctypes.c_int, ctypes.c_int,
                                      ctypes.c_ulong]
        libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
        libc.shmat.restype = ctypes.c_void_p
        libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
        libc.shmctl.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
        self.dpy = x11.XOpenDisplay(None)
        if not self.dpy:
            raise SystemExit("latency-probe: cannot open the X display")
        self.root = x11.XDefaultRootWindow(self.dpy)
        self.info = ShmInfo()
        self.img = xext.XShmCreateImage(self.dpy, x11.XDefaultVisual(self.dpy, 0), x11.XDefaultDepth(self.dpy, 0), 2, None,
                                        ctypes.byref(self.info), self.w, self.h)
        size = self.img.contents.bytes_per_line * self.h
        self.info.shmid = libc.shmget(0, size, 0o1000 | 0o600)  # IPC_PRIVATE, IPC_CREAT
        addr = libc.shmat(self.info.shmid, None, 0)
        self.info.shmaddr = addr
        self.img.contents.data = addr
        self.info.readOnly = 0
        xext.XShmAttach(self.dpy, ctypes.byref(self.info))
        x11.XSync(self.dpy, 0)
        libc.shmctl(self.info.shmid, 0, None)  # IPC_RMID: gone once both sides detach
        self.xext = xext
        buf = (ctypes.c_uint8 * size).from_address(addr)
        self.pixels = np.frombuffer(buf, dtype=np.uint8).reshape(self.h, self.img.contents.bytes_per_line)
        self.samples = []  # (time, brightness)

    def brightness(self):
        self.xext.XShmGetImage(self.dpy, self.root, self.img, self.x, self.y, 0xFFFFFFFF)
        p = self.pixels[::2, : self.w * 4 : 8]  # every second row, every second pixel (BGRX)
        return float(p.mean())

    def run(self, stop, period):
        nxt = time.monotonic()
        while not stop.is_set():
            b = self.brightness()
            self.samples.append((time.monotonic(), b))
            nxt += period
            d = nxt - time.monotonic()
            if d > 0:
                time.sleep(d)
            else:
                nxt = time.monotonic()


class Tap:
    """Records the sink's monitor with small fragments; finds each click's arrival."""

    def __init__(self, sink):
        self.proc = subprocess.Popen(["parec", "--raw", "--format=float32le", f"--rate={RATE}", "--channels=1",
                                      "--latency-msec=2", f"--device={sink}.monitor"], stdout=subprocess.PIPE, bufsize=0)
        self.onsets = []  # monotonic time each click's first sample reached the monitor
        self.total = 0
        self.quiet = 0

    def run(self, stop):
        frag = 96 * 4  # 2 ms
        while not stop.is_set():
            data = self.proc.stdout.read(frag)
            now = time.monotonic()
            if not data:
                break
            a = np.frombuffer(data[: len(data) // 4 * 4], dtype=np.float32)
            loud = np.nonzero(np.abs(a) > 0.1)[0]
            if len(loud) and self.quiet > RATE // 10:  # a new click after >= 100 ms of quiet
                first = loud[0]
                self.onsets.append(now - (len(a) - first) / RATE)
            if len(loud):
                self.quiet = len(a) - 1 - loud[-1]
            else:
                self.quiet += len(a)
            self.total += len(a)

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def play(sink, clicks, gap, onset_wall, stop):
    pacat = subprocess.Popen(["pacat", "--playback", "--raw", "--format=s16le", f"--rate={RATE}", "--channels=1",
                              "--latency-msec=10", f"--device={sink}"], stdin=subprocess.PIPE)
    silence = bytes(2 * CHUNK)
    click = b"".join(struct.pack("<h", 20000 if (i // 12) % 2 == 0 else -20000) for i in range(CHUNK))
    start = time.monotonic()
    written = 0
    n = 0
    rng = random.Random(7)
    next_click = start + 3.0  # the null sink settles on low latency first (TESTING.md)
    while n < clicks and not stop.is_set():
        now = time.monotonic()
        due = start + written * CHUNK / RATE
        if now < due:
            time.sleep(min(due - now, 0.002))
            continue
        if now >= next_click:
            pacat.stdin.write(click)
            onset_wall.append(time.time())
            n += 1
            next_click += gap + rng.uniform(0, 0.3)  # not in step with the frames
        else:
            pacat.stdin.write(silence)
        pacat.stdin.flush()
        written += 1
    for _ in range(int(0.5 * RATE / CHUNK)):
        pacat.stdin.write(silence)
        pacat.stdin.flush()
        time.sleep(CHUNK / RATE)
    pacat.stdin.close()
    pacat.wait()


def reactions(samples, onsets, rise):
    """Per reference time, the delay (s) to the first poll brighter than before it, or None."""
    ts = np.array([s[0] for s in samples])
    bs = np.array([s[1] for s in samples])
    out = []
    for t0 in onsets:
        before = bs[(ts >= t0 - 0.3) & (ts < t0)]
        if len(before) < 20:
            out.append(None)
            continue
        base = np.median(before)
        mad = np.median(np.abs(before - base))
        thr = base + max(rise, 6 * mad)
        after = np.nonzero((ts >= t0) & (ts < t0 + 0.5) & (bs > thr))[0]
        out.append(float(ts[after[0]] - t0) if len(after) else None)
    return out


def percentile(xs, p):
    return float(np.percentile(np.array(xs), p)) if xs else float("nan")


def readouts(stats, click_walls):
    """The app's readout (latency.totalMs and parts) for each click: the first onset
    the stats lines list (latency.onsets) presented within 500 ms after the click
    reached the monitor (`click_walls`: the tap's times on the wall clock; the time
    a click was written to pacat drifts from it as the stream's buffer grows), or None."""
    if not stats or not os.path.exists(stats):
        return [None] * len(click_walls)
    lines = []
    for l in open(stats):
        try:
            lines.append(json.loads(l))
        except ValueError:
            pass
    per_onset = []
    for l in lines:
        for o in (l.get("latency") or {}).get("onsets", []):
            per_onset.append(o)
    out = []
    for w in click_walls:
        own = [o for o in per_onset if 0 <= o.get("present", 0) - w < 0.5]
        out.append(own[0] if own else None)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--clicks", type=int, default=40)
    ap.add_argument("--gap", type=float, default=1.0)
    ap.add_argument("--region", default="480,270,320,180")
    ap.add_argument("--rise", type=float, default=1.0, help="least brightness rise (0-255 scale)")
    ap.add_argument("--label", default="target")
    ap.add_argument("--stats")
    ap.add_argument("--sink", default="probe_sink")
    a = ap.parse_args()
    poller = ScreenPoller(tuple(int(v) for v in a.region.split(",")))
    tap = Tap(a.sink)
    stop = threading.Event()
    walls = []
    wall_offset = time.time() - time.monotonic()  # the stats' present times are on the wall clock
    threads = [threading.Thread(target=poller.run, args=(stop, 1 / 600), daemon=True),
               threading.Thread(target=tap.run, args=(stop,), daemon=True)]
    for t in threads:
        t.start()
    play(a.sink, a.clicks, a.gap, walls, stop)
    time.sleep(2.5)  # the app writes its stats once a second
    stop.set()
    tap.stop()
    for t in threads:
        t.join(timeout=2)
    polls = poller.samples
    span = polls[-1][0] - polls[0][0] if len(polls) > 1 else 0
    rate = (len(polls) - 1) / span if span > 0 else 0
    delays = reactions(polls, tap.onsets, a.rise)
    reads = readouts(a.stats, [t + wall_offset for t in tap.onsets])
    print(f"{a.label}: {len(walls)} clicks played, {len(tap.onsets)} heard on the monitor tap, "
          f"screen polled {rate:.0f} times a second")
    got = []
    rows = []
    for i, d in enumerate(delays):
        r = reads[i] if i < len(reads) else None
        total = r.get("totalMs") if isinstance(r, dict) else None
        parts = {k: r.get(k) for k in ("captureMs", "analysisMs", "queueMs", "frameMs")} if isinstance(r, dict) else {}
        if d is None:
            print(f"  click {i + 1:2d}: no brighter frame within 500 ms")
        else:
            got.append(d * 1000)
            print(f"  click {i + 1:2d}: {d * 1000:6.1f} ms" + (f"   readout {total:.1f} ms {parts}" if total is not None else ""))
        row = {"measuredMs": None if d is None else d * 1000, "readout": r}
        if d is not None and isinstance(r, dict) and r.get("present") is not None and r.get("totalMs") is not None:
            # Where the readout and the probe part: the picture reaching the screen after
            # the app's present (Xvfb drawing the swapped frame, the poll), and the app's
            # idea of when the hit began against the tap's reference.
            reference_wall = tap.onsets[i] + wall_offset
            row["presentToPollMs"] = (reference_wall + d - r["present"]) * 1000
            row["hitStartAfterReferenceMs"] = (r["present"] - r["totalMs"] / 1000 - reference_wall) * 1000
        rows.append(row)
    summary = {"label": a.label, "clicks": len(walls), "heard": len(tap.onsets), "reacted": len(got),
               "pollsPerSecond": rate, "medianMs": percentile(got, 50), "p10Ms": percentile(got, 10),
               "p90Ms": percentile(got, 90), "rows": rows}
    # The readout against the probe over the clicks that have both.
    pairs = [(row["measuredMs"], row["readout"]["totalMs"]) for row in rows
             if row["measuredMs"] is not None and isinstance(row["readout"], dict) and row["readout"].get("totalMs") is not None]
    if pairs:
        summary["pairedClicks"] = len(pairs)
        summary["pairedMedianMs"] = percentile([m for m, _ in pairs], 50)
        summary["readoutMedianMs"] = percentile([r for _, r in pairs], 50)
        summary["readoutMinusProbeMedianMs"] = percentile([r - m for m, r in pairs], 50)
        summary["readoutWithin3MsOfProbe"] = sum(abs(r - m) <= 3 for m, r in pairs)
        gaps = [row["presentToPollMs"] for row in rows if "presentToPollMs" in row]
        starts = [row["hitStartAfterReferenceMs"] for row in rows if "hitStartAfterReferenceMs" in row]
        summary["presentToPollMedianMs"] = percentile(gaps, 50)
        summary["hitStartAfterReferenceMedianMs"] = percentile(starts, 50)
    print(f"{a.label}: sound -> picture median {summary['medianMs']:.1f} ms, p10 {summary['p10Ms']:.1f}, "
          f"p90 {summary['p90Ms']:.1f} ({len(got)} of {len(walls)} clicks)"
          + (f"; the app's readout for the same {len(pairs)} clicks: median {summary['readoutMedianMs']:.1f} ms "
             f"against the probe's {summary['pairedMedianMs']:.1f} ms, per click readout - probe median "
             f"{summary['readoutMinusProbeMedianMs']:+.1f} ms, within 3 ms on {summary['readoutWithin3MsOfProbe']}"
             if pairs else ""))
    if pairs:
        print(f"{a.label}: where they part (medians): the app's present to the first brighter poll "
              f"{summary['presentToPollMedianMs']:+.1f} ms; the hit's start by the readout lies "
              f"{summary['hitStartAfterReferenceMedianMs']:+.1f} ms after the tap's reference")
    json.dump(summary, open(a.out, "w"))


if __name__ == "__main__":
    main()
