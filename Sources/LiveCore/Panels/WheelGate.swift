/// Who gets the mouse wheel over a slider: the slider, or the list or panel
/// under it ("scroll-jacking" avoided the way desktop toolkits do).
///
/// The wheel steps a slider only when the slider has the keyboard focus, or
/// when the pointer has rested on it for `restTime` with no wheel turned in
/// between; otherwise the wheel scrolls what holds the slider. So scrolling
/// a list past a slider never changes its value: the slider that slides
/// under a still pointer while the list scrolls has not been rested on (each
/// notch that scrolled starts the wait again).
///
/// Frames: the panels' toolkit decides whether the window scrolls before the
/// frame's widgets run, from the claim the hovered widget made in the frame
/// before. So a slider claims the wheel (`claim`) one frame, and steps by the
/// wheel (`step`) only when it had claimed it in the previous frame too;
/// notches that arrive in the frame of its first claim scroll the panel.
/// Pure: the shell gives it the hovered slider, the time and the pointer.
public struct WheelGate: Equatable, Sendable {
    /// What the hovered slider does with the wheel this frame.
    public struct Decision: Equatable, Sendable {
        /// Keep the wheel from scrolling the window (from the next frame on).
        public var claim: Bool
        /// Step the value by this frame's wheel notches.
        public var step: Bool
    }

    /// How long the pointer must rest on a slider before the wheel steps it.
    public var restTime: Double
    /// How far the pointer may drift (pixels) and still rest.
    public var drift: Double = 3
    private var slider: UInt32?
    private var restSince = 0.0
    private var pointer: (x: Double, y: Double) = (0, 0)
    private var lastScroll = -Double.infinity
    private var claimedFrame = Int.min
    private var claimedSlider: UInt32?

    public init(restTime: Double = 0.3) {
        self.restTime = restTime
    }

    public static func == (a: WheelGate, b: WheelGate) -> Bool {
        a.restTime == b.restTime && a.slider == b.slider && a.restSince == b.restSince && a.lastScroll == b.lastScroll
            && a.claimedFrame == b.claimedFrame && a.claimedSlider == b.claimedSlider
    }

    /// Slider `id` is under the pointer at `pointer` in frame `frame` at time
    /// `now`; `focused`: it has the keyboard focus; `wheel`: this frame's notches.
    public mutating func hovered(_ id: UInt32, focused: Bool, pointer p: (x: Double, y: Double), wheel: Double,
                                 frame: Int, now: Double) -> Decision {
        // A clock or frame count that went back is a new UI context: forget the old one.
        if now < restSince || (lastScroll.isFinite && now < lastScroll) || frame < claimedFrame { self = WheelGate(restTime: restTime) }
        let moved = abs(p.x - pointer.x) > drift || abs(p.y - pointer.y) > drift
        if id != slider || moved {
            slider = id
            restSince = now
            pointer = p
        }
        let claimedBefore = claimedSlider == id && claimedFrame == frame - 1
        let rested = now - max(restSince, lastScroll) >= restTime
        let claim = focused || rested || (claimedBefore && wheel != 0)
        let step = claimedBefore && claim && wheel != 0
        if wheel != 0 && !step { lastScroll = now }  // those notches scrolled the panel
        if claim {
            claimedSlider = id
            claimedFrame = frame
        }
        return Decision(claim: claim, step: step)
    }
}
