import Dispatch
import Synchronization

/// One frame output's place on the `FrameFanout`: its pace, its queue depth
/// and what it dropped. Created on the frame thread; read anywhere (atomics).
final class FrameTap: Sendable {
    /// Said in notices and stats ("recording", "PipeWire", "stream").
    let name: String
    /// Frames per second the output takes (extra frames are skipped, late ones
    /// repeated: see `FrameLease.repeats`); nil: every frame the loop shows.
    let fps: Double?
    /// Frames waiting for the output at most; a new one pushes the oldest out.
    let depth: Int
    /// A live output (camera, stream) may take a frame up to one frame of its
    /// rate early, so a loop rendering near that rate with uneven frame times
    /// still gets every frame through (the grid alone skips a frame that
    /// lands in a slot already taken and repeats the next); its average rate
    /// stays at `fps`. A recording keeps the exact grid (false).
    let early: Bool
    /// Signalled when a frame is queued for this output or it is closed.
    let wake = DispatchSemaphore(value: 0)
    /// Frames pushed out of the queue before the output took them (and video
    /// frames beyond the longest gap filled with repeats).
    let dropped = Atomic<Int>(0)
    /// Frames queued for the output.
    let queued = Atomic<Int>(0)
    /// Frames the loop offered while the tap was open, and the loop's time spent offering them.
    let offered = Atomic<Int>(0)
    let offerNanoseconds = Atomic<Int>(0)
    /// Set by `FrameFanout.close`: no frame is queued after it.
    let closed = Atomic<Bool>(false)

    init(name: String, fps: Double?, depth: Int, early: Bool = false) {
        precondition(depth > 0 && (fps ?? 1) > 0)
        self.name = name
        self.fps = fps
        self.depth = depth
        self.early = early
    }
}

/// A frame handed to one output; its bytes stay intact until
/// `FrameFanout.release`. `repeats`: how many frames of the output's rate it
/// stands for (1 for outputs that take every frame).
struct FrameLease: @unchecked Sendable {
    let slot: Int
    /// RGBA, `width × height × 4` bytes, row 0 at the top.
    let bytes: UnsafeRawBufferPointer
    let width: Int
    let height: Int
    /// The loop's time when the frame was shown (seconds, monotonic).
    let time: Double
    /// When the frame thread copied it in (for an output's latency).
    let offeredAt: ContinuousClock.Instant
    var repeats: Int
}

/// The one bounded frame queue between the frame thread and every frame
/// output beside the window (recorder, PipeWire source, network stream,
/// v4l2loopback). The frame thread copies a frame once, into a free slot of a
/// preallocated pool, and only when some output is due a frame (`wants`);
/// each output (a `FrameTap`, on its own thread) has a queue of at most
/// `depth` slots: when it is full the **oldest** waiting frame is dropped
/// (counted on that tap) and its repeats go to the next one, so a slow
/// output shows the newest picture and a recording keeps its length.
/// `offer` never waits for an output: the pool holds, per tap, its queue,
/// the frame its output works on, the one it keeps and one for the producer
/// (`depth + 3`), so a free slot always exists. Slots are
/// reference-counted (several outputs read one copy).
///
/// Thread safety: `offer`, `wants` and `dueTail` on the frame thread;
/// `next` and `release` on the tap's thread; `attach`, `detach` and `close` anywhere. The shared state is
/// behind one Mutex held only for index work (never during a copy or an
/// output's work); slot bytes are written only while the producer holds the
/// slot's only reference and read only under a lease — hence `@unchecked Sendable`.
final class FrameFanout: @unchecked Sendable {
    /// Longest gap (seconds) a paced output fills with repeats; the rest counts as dropped.
    let maxGap: Double

    private struct Entry: Sendable {
        var slot: Int
        var repeats: Int
    }

    private struct TapState: Sendable {
        let tap: FrameTap
        var queue: [Entry]
        /// Pacing: the time of the first frame, and output frames accounted for since.
        var start: Double?
        var accounted = 0
        var lastTime: Double?
        /// Output frames due for the frame being offered (between its two locks).
        var pending = 0
    }

    /// A slot's bytes are owned as the type comment says (producer while it alone holds it, leases after).
    private struct Slot: @unchecked Sendable {
        var bytes: UnsafeMutableRawPointer?
        var capacity = 0
        var refs = 0
        var width = 0, height = 0
        var time = 0.0
        var offeredAt = ContinuousClock.now
        /// Given back by a detached tap (no bytes); reused by the next attach.
        var retired = false
    }

    private struct State: Sendable {
        var taps: [TapState] = []
        var slots: [Slot] = []
    }

    private let state = Mutex(State())

    init(maxGap: Double = 5) { self.maxGap = maxGap }

    deinit {
        state.withLock { s in for slot in s.slots { slot.bytes?.deallocate() } }
    }

    /// Taps attached now (any thread).
    var tapCount: Int { state.withLock { $0.taps.count } }

    /// Adds an output; grows the pool by `depth + 3` slots of `frameBytes`
    /// (the tap's queue, the frame its output works on, the one it keeps,
    /// and one for the producer), allocated here rather than on a later
    /// frame. Any thread (an output may attach when a consumer appears).
    func attach(_ tap: FrameTap, frameBytes: Int) {
        let n = tap.depth + 3, bytes = max(frameBytes, 1)
        var fresh: [Slot] = []
        for _ in 0..<n {
            let p = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            p.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)  // the pages exist before the first frame
            fresh.append(Slot(bytes: p, capacity: bytes))
        }
        state.withLock { s in
            var q: [Entry] = []
            q.reserveCapacity(tap.depth + 1)
            s.taps.append(TapState(tap: tap, queue: q))
            for slot in fresh {
                if let i = s.slots.firstIndex(where: { $0.retired }) { s.slots[i] = slot } else { s.slots.append(slot) }
            }
        }
    }

    /// Output frames `tap`'s pace is still due up to the last frame offered
    /// (at most `maxGap` seconds' worth), for an output that ends on its
    /// last picture (a recording lasts until its stop). Frame thread.
    func dueTail(_ tap: FrameTap) -> Int {
        state.withLock { s -> Int in
            guard let i = s.taps.firstIndex(where: { $0.tap === tap }), let fps = tap.fps,
                  let t0 = s.taps[i].start, let t = s.taps[i].lastTime else { return 0 }
            let due = Self.dueFrames(t, start: t0, fps: fps) - s.taps[i].accounted
            return min(max(0, due), Int(maxGap * fps))
        }
    }

    /// Stops queueing frames for `tap` (frames already queued stay for its
    /// output to take) and wakes its thread. Any thread.
    func close(_ tap: FrameTap) {
        tap.closed.store(true, ordering: .releasing)
        tap.wake.signal()
    }

    /// Whether a frame shown at `time` would be queued for any output (so the
    /// caller reads a GPU picture back only then). Frame thread.
    func wants(time: Double) -> Bool {
        state.withLock { s in s.taps.contains { due($0, at: time) > 0 } }
    }

    /// Notes a frame shown at `time` that no output was due (`wants` said
    /// no): counted as offered, and the last time a recording ends on. Frame thread.
    func skip(time: Double) {
        state.withLock { s in
            for i in s.taps.indices where !s.taps[i].tap.closed.load(ordering: .relaxed) && s.taps[i].start != nil {
                s.taps[i].tap.offered.add(1, ordering: .relaxed)
                s.taps[i].lastTime = time
            }
        }
    }

    /// Offers the frame shown at `time`: copies it once into a free slot and
    /// queues it for every open output that is due a frame. Never waits for
    /// an output. Frame thread.
    func offer(_ frame: UnsafeRawBufferPointer, width: Int, height: Int, time: Double) {
        let bytes = width * height * 4
        precondition(frame.count >= bytes && width > 0 && height > 0, "frame smaller than its size")
        let began = ContinuousClock.now
        // Mark the outputs due a frame and take a free slot.
        let picked = state.withLock { s -> Int? in
            var any = false
            for i in s.taps.indices where !s.taps[i].tap.closed.load(ordering: .relaxed) {
                s.taps[i].tap.offered.add(1, ordering: .relaxed)
                s.taps[i].pending = due(s.taps[i], at: time)
                if s.taps[i].start == nil { s.taps[i].start = time }
                s.taps[i].lastTime = time
                any = any || s.taps[i].pending > 0
            }
            guard any else { return nil }
            guard let free = s.slots.firstIndex(where: { $0.refs == 0 && !$0.retired }) else {
                // Cannot happen with the pool's size; counted all the same.
                for i in s.taps.indices where s.taps[i].pending > 0 {
                    s.taps[i].tap.dropped.add(1, ordering: .relaxed)
                    s.taps[i].pending = 0
                }
                return nil
            }
            s.slots[free].refs = 1  // the producer's, while it copies
            return free
        }
        defer { account(since: began) }
        guard let picked else { return }
        // Copy outside the lock: nobody else holds this slot.
        var slot = state.withLock { $0.slots[picked] }
        if slot.capacity < bytes {
            slot.bytes?.deallocate()
            slot.bytes = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)  // the frame grew (a window resize)
            slot.capacity = bytes
        }
        slot.bytes!.copyMemory(from: frame.baseAddress!, byteCount: bytes)
        slot.width = width
        slot.height = height
        slot.time = time
        slot.offeredAt = began
        state.withLock { s in
            slot.refs = s.slots[picked].refs
            s.slots[picked] = slot
            for i in s.taps.indices where s.taps[i].pending > 0 {
                queue(picked, repeats: s.taps[i].pending, for: i, in: &s)
                s.taps[i].pending = 0
                s.taps[i].tap.wake.signal()
            }
            s.slots[picked].refs -= 1
        }
    }

    /// The same for a pixel array.
    func offer(_ pixels: [UInt8], width: Int, height: Int, time: Double) {
        pixels.withUnsafeBytes { offer($0, width: width, height: height, time: time) }
    }

    /// The oldest frame queued for `tap`, waiting up to `timeout` seconds for
    /// one; nil on time-out or once the tap is closed and empty. Release it
    /// with `release`. The tap's thread.
    func next(_ tap: FrameTap, timeout: Double) -> FrameLease? {
        let deadline = DispatchTime.now() + timeout
        while true {
            if let lease = take(tap) { return lease }
            if tap.closed.load(ordering: .acquiring) && queuedCount(tap) == 0 { return nil }
            if tap.wake.wait(timeout: deadline) == .timedOut { return take(tap) }
        }
    }

    /// The oldest frame queued for `tap` without waiting, or nil.
    func take(_ tap: FrameTap) -> FrameLease? {
        state.withLock { s -> FrameLease? in
            guard let i = s.taps.firstIndex(where: { $0.tap === tap }), !s.taps[i].queue.isEmpty else { return nil }
            let e = s.taps[i].queue.removeFirst()
            let slot = s.slots[e.slot]
            return FrameLease(slot: e.slot, bytes: UnsafeRawBufferPointer(start: slot.bytes, count: slot.width * slot.height * 4),
                              width: slot.width, height: slot.height, time: slot.time, offeredAt: slot.offeredAt, repeats: e.repeats)
        }
    }

    /// Frames queued for `tap` now.
    func queuedCount(_ tap: FrameTap) -> Int {
        state.withLock { s in s.taps.first { $0.tap === tap }?.queue.count ?? 0 }
    }

    /// Gives a leased frame's slot back.
    func release(_ lease: FrameLease) {
        state.withLock { s in s.slots[lease.slot].refs -= 1 }
    }

    /// Removes a tap (closing it first), frees what it still held queued and
    /// gives back the slots it added (free ones now; the pool stays large
    /// enough for the remaining taps). Any thread; leases the tap's output
    /// still holds must be released first.
    func detach(_ tap: FrameTap) {
        tap.closed.store(true, ordering: .releasing)
        let freed = state.withLock { s -> [Slot] in
            var freed: [Slot] = []
            guard let i = s.taps.firstIndex(where: { $0.tap === tap }) else { return freed }
            for e in s.taps[i].queue { s.slots[e.slot].refs -= 1 }
            s.taps.remove(at: i)
            var n = tap.depth + 3
            for j in s.slots.indices where n > 0 && !s.slots[j].retired && s.slots[j].refs == 0 {
                freed.append(s.slots[j])
                s.slots[j] = Slot(retired: true)
                n -= 1
            }
            return freed
        }
        for slot in freed { slot.bytes?.deallocate() }
    }

    // MARK: - Under the lock

    /// Output frames `t` is due at `time` (0: not due; 1 for every-frame outputs).
    private func due(_ t: TapState, at time: Double) -> Int {
        guard !t.tap.closed.load(ordering: .relaxed) else { return 0 }
        guard let fps = t.tap.fps else { return 1 }
        let grid = Self.dueFrames(time, start: t.start ?? time, fps: fps) - t.accounted
        // One slot ahead at most: the frame takes the next slot, and the grid catches up.
        return grid <= 0 && t.tap.early && grid + 1 > 0 ? 1 : grid
    }

    /// Queues `slot` for tap `i` standing for `repeats` output frames; drops
    /// the oldest waiting frame when the queue is full.
    private func queue(_ slot: Int, repeats: Int, for i: Int, in s: inout State) {
        let tap = s.taps[i].tap
        var n = repeats
        if let fps = tap.fps {
            let cap = Int(maxGap * fps)
            if n > cap {
                tap.dropped.add(n - cap, ordering: .relaxed)
                s.taps[i].accounted += n - cap
                n = cap
            }
            s.taps[i].accounted += n
        }
        if s.taps[i].queue.count >= tap.depth {
            let old = s.taps[i].queue.removeFirst()
            s.slots[old.slot].refs -= 1
            tap.dropped.add(1, ordering: .relaxed)
            // The next frame stands in for the dropped one's time.
            if s.taps[i].queue.isEmpty { n += old.repeats } else { s.taps[i].queue[0].repeats += old.repeats }
        }
        s.taps[i].queue.append(Entry(slot: slot, repeats: n))
        s.slots[slot].refs += 1
        tap.queued.add(1, ordering: .relaxed)
    }

    private func account(since began: ContinuousClock.Instant) {
        let d = ContinuousClock.now - began
        let ns = Int(d.components.seconds) * 1_000_000_000 + Int(d.components.attoseconds / 1_000_000_000)
        state.withLock { s in for t in s.taps where !t.tap.closed.load(ordering: .relaxed) { t.tap.offerNanoseconds.add(ns, ordering: .relaxed) } }
    }

    /// Output frames at `fps` that cover the time from `start` to `time`.
    static func dueFrames(_ time: Double, start: Double, fps: Double) -> Int {
        Int(((time - start) * fps).rounded(.down)) + 1
    }
}
