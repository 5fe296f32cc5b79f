import Engine
import Storage

/// An audio config: how sound is analysed (`AudioTuning`)
/// and how it moves the picture (routes). Saved as JSON (see
/// docs/audio-config.schema.json); read only through the strict loader.
/// A value type.
public struct AudioConfig: Sendable, Hashable {
    /// The format version this build reads and writes.
    public static let formatVersion = 1
    /// Largest config file accepted, bytes.
    public static let maxFileSize = 1 << 20
    /// Longest name, characters.
    public static let maxNameLength = 64
    /// Most routes in one config.
    public static let maxRoutes = 256
    /// Global reactivity range (1 = routes as authored).
    public static let reactivityRange: ClosedRange<Double> = 0...3

    /// Display name (1…64 characters).
    public var name: String
    /// Master switch: routes act only when true.
    public var enabled: Bool = true
    /// Global reactivity: scales every route's depth.
    public var reactivity: Double = 1
    /// Analysis settings: gain, auto-gain, envelope, gate, onsets, band edges.
    public var tuning = AudioTuning()
    /// The routes.
    public var routes: [Route] = []
    /// Top-level JSON members this version does not know (kept on save).
    public var extraMembers: [JSONMember] = []

    /// A config named `name` with default settings and no routes.
    public init(name: String) { self.name = name }

    /// The built-in default: default settings and the default wiring.
    public static var builtInDefault: AudioConfig {
        var c = AudioConfig(name: "Default")
        c.routes = DefaultWiring.routes
        return c
    }

    /// Puts the config's master, reactivity and routes into a modulator
    /// (smoothing state of routes kept by index).
    public func configure(_ modulator: inout Modulator) {
        modulator.enabled = enabled
        modulator.reactivity = reactivity
        modulator.routes = routes
    }
}
