import Foundation

/// A floor that follows the room's noise, for one level series (a band, or
/// a level path of `OnsetFusion`): the `OnsetFusion.floorQuantile` of the
/// values over the last `floorSeconds` (the recent floor), and the lowest of
/// the last `roomFloorCount` recent floors, one kept every `roomFloorEvery`
/// hops (minimum statistics: a drum's ring, a pause, quiet music lie above
/// it). `db` is the lower of the two, `power` the same as a power; both
/// change only when a value is added. Allocates only in `init`.
struct RoomFloor {
    private var recent: SortedWindow
    private var lows: [Float]
    private var index = 0
    private var lowest: Float = .infinity
    /// The floor (dB): −200 until a value is held.
    private(set) var db: Float = -200
    /// `db` as a power.
    private(set) var power: Float = 1e-20

    /// A floor over the last `capacity` values added.
    init(capacity: Int) {
        recent = SortedWindow(emptyWithCapacity: capacity)
        lows = Array(repeating: .infinity, count: OnsetFusion.roomFloorCount)
    }

    /// Adds a value; with `keepRecent`, the recent floor joins the room's lows.
    mutating func add(_ value: Float, keepRecent: Bool) {
        recent.add(value)
        let floor = recent.quantile(OnsetFusion.floorQuantile)
        if keepRecent {
            // The lows change here only: their lowest is kept, not searched per hop.
            lows[index] = floor
            lowest = lows.min() ?? .infinity
            index = (index + 1) % lows.count
        }
        db = min(floor, lowest)
        power = Float(pow(10, Double(db) / 10))
    }
}
