/// The one list of every parameter. UI, randomize, routes, JSON and the remote
/// are all driven from here.
public enum ParamRegistry {
    /// All 45 scalar parameters, in `ParamKey` index order.
    public static let scalars: [ParamSpec] = buildScalars()

    /// Non-scalar parameters (choices and colours), for listings and the UI.
    public static let others: [OtherParamSpec] = buildOthers()

    /// Scalar spec by stable id.
    public static func spec(id: String) -> ParamSpec? { indexByID[id].map { scalars[$0] } }

    /// Scalar key by stable id.
    public static func key(id: String) -> ParamKey? { indexByID[id].map(ParamKey.init(index:)) }

    private static let indexByID: [String: Int] = {
        var d: [String: Int] = [:]
        for (i, s) in scalars.enumerated() { d[s.id] = i }
        return d
    }()

    private static func buildScalars() -> [ParamSpec] {
        var out: [ParamSpec] = []
        func add(_ id: String, _ label: String, _ section: ParamSection, _ min: Double, _ max: Double,
                 _ def: Double, integer: Bool = false, respawn: Bool = false,
                 scale: ModulationScale = .linear, unit: String = "", species: Int? = nil,
                 _ help: String) {
            out.append(ParamSpec(id: id, label: label, section: section, min: min, max: max,
                                 defaultValue: def, integer: integer, respawn: respawn, scale: scale,
                                 unit: unit, help: help, species: species))
        }
        // Global
        add("global.agents", "Agents", .global, 1_000, 128_000_000, 500_000, integer: true, respawn: true,
            scale: .log,
            "How many agents crawl the field, shared between the species by their population weights. More agents lay denser, brighter networks with finer branches; fewer give sparse, wispy threads. Each agent costs time every step, so very high counts lower the frame rate (the CPU engine takes at most 8 million; the GPU engine up to 128 million). Changing it adds or removes agents without restarting the others.")
        add("global.exposure", "Exposure", .global, 0.05, 8, 1, scale: .log,
            "Brightness of the trails before tone mapping. Raise it to bring faint trails out of the dark (strong trails then flatten into solid colour); lower it to keep only the busiest highways visible.")
        add("global.simSpeed", "Sim speed", .global, 0, 8, 1, unit: "steps/frame",
            "Simulation steps per displayed frame. 1 is the natural pace; 2–8 fast-forward growth (at a cost in frame rate); fractions run in slow motion and 0 freezes the simulation while the picture and effects keep rendering.")
        // Species
        let speciesHelp: [SpeciesField: String] = [
            .population: "Share of the agents that belong to this species, as a weight against the other species' weights (all zero means an equal split). Raising it gives this species more of the crowd and its colour more of the picture. Changing it respawns only the agents that have to change species.",
            .sensorAngle: "Angle between the centre sensor and each side sensor. Narrow angles make agents follow trails faithfully and build long straight veins; wide angles make them react to trails off to the side, curling into tight loops, cells and spots.",
            .sensorDistance: "How far ahead the sensors look, in field pixels. Short sensors react to fine local detail and give thin, lacy networks with small cells; long sensors see further and give coarse, sweeping structures with big cells.",
            .turnSpeed: "How far an agent turns per step toward the strongest sensor. Low values give lazy, wide curves and loose networks (0 is a random walk that forms no trails at all); high values snap agents onto trails for sharp, tight filaments.",
            .moveSpeed: "Distance an agent moves per step, in field pixels. Faster agents cover more ground and stretch the network into long, flowing strands; slower ones build dense, detailed clusters. The default audio wiring pushes it with the bass.",
            .deposit: "Amount of trail an agent leaves behind each step. More deposit makes this species' trails brighter and more attractive to whoever follows them; less makes them faint, so they fade before others can find them.",
        ]
        let speciesLabels: [SpeciesField: (String, Double, Double, Double, ModulationScale, String)] = [
            .population: ("Population", 0, 1, 1, .linear, ""),
            .sensorAngle: ("Sensor angle", 1, 120, 30, .linear, "°"),
            .sensorDistance: ("Sensor distance", 1, 64, 9, .log, "px"),
            .turnSpeed: ("Turn speed", 0, 90, 20, .linear, "°/step"),
            .moveSpeed: ("Move speed", 0, 8, 1.2, .linear, "px/step"),
            .deposit: ("Deposit", 0, 10, 1, .linear, ""),
        ]
        for s in 0..<ParamKey.speciesCount {
            for f in SpeciesField.allCases {
                let (label, lo, hi, def, scale, unit) = speciesLabels[f]!
                add("species.\(s).\(f.name)", label, .species, lo, hi, def,
                    respawn: f == .population, scale: scale, unit: unit, species: s, speciesHelp[f]!)
            }
        }
        // Interaction matrix
        let matrixHelp = "How strongly the row species is drawn to the column species' trail when it senses. Positive values attract (it follows that trail), negative values repel (it steers away), 0 ignores it. The diagonal is a species' cohesion with itself: high keeps it in tight networks of its own; off-diagonal attraction makes species braid together, repulsion carves them into separate territories."
        for r in 0..<ParamKey.speciesCount {
            for c in 0..<ParamKey.speciesCount {
                add("matrix.\(r).\(c)", "\(r + 1) ← \(c + 1)", .matrix, -1, 1, r == c ? 1 : -0.25, matrixHelp)
            }
        }
        // Pheromone
        add("pheromone.decay", "Decay", .pheromone, 0, 0.999, 0.95, scale: .logHalfLife,
            "Fraction of the trail kept after each simulation step (0.95 keeps 95 %). Close to 1 the trails linger for a long time, so the network is smooth, stable and bright; lower values make trails evaporate quickly, leaving only paths that are being walked right now. 0 keeps nothing.")
        add("pheromone.diffusion", "Diffusion interval", .pheromone, 1, 12, 1, integer: true, unit: "steps",
            "Blur the trails every N simulation steps. 1 blurs every step for soft, wide, glowing trails; larger intervals blur less often, leaving crisp, thin, sharp-edged lines. It changes sharpness, not how long trails last.")
        add("pheromone.fade", "Fade", .pheromone, 0, 1, 0,
            "A constant amount taken off every pixel each step on top of decay. It wipes out faint trails entirely while barely touching strong ones, which darkens the background between highways and raises contrast. 0 turns it off.")
        add("pheromone.trailCap", "Trail cap", .pheromone, 1, 1000, 100, scale: .log,
            "Highest trail value any pixel can hold. A low cap stops busy highways from dominating, so agents keep exploring and the network stays even and lacy; a high cap lets main routes grow very strong and the network condense into a few thick veins.")
        // Dynamics
        add("dynamics.chaosInterval", "Chaos interval", .dynamics, 0, 2000, 0, integer: true, unit: "steps",
            "Every N simulation steps each agent's heading gets a random kick (0 = never). Short intervals keep the network restless, constantly tearing and regrowing; long intervals let it settle between shake-ups.")
        add("dynamics.chaosStrength", "Chaos strength", .dynamics, 0, 1, 0.25,
            "Size of the chaos kick, as a fraction of a half turn (1 can send an agent in any direction). Small kicks make the network shimmer; large ones scatter it into fireworks that then re-knit. Also the target of the default wiring's transient route.")
        add("dynamics.rhythm", "Rhythm", .dynamics, 0, 1, 0,
            "Adds a slow sine-shaped wander to each agent's heading, each agent with its own phase. Raising it makes trails meander and ripple like seaweed in a current; 0 keeps paths straight where the trails say so.")
        // Effects
        add("effects.headGlow", "Head glow", .effects, 0, 3, 0,
            "Brightness of a small spark drawn at every agent's current position on top of the trails. 0 shows trails only; higher values make the moving crowd visible as glittering points, especially where agents cluster.")
        add("effects.kaleidoscope", "Kaleidoscope", .effects, 0, 6, 0, integer: true, unit: "axes",
            "Mirrors the picture around the centre. 0 is off; 1 mirrors left and right; 2…6 add more mirror axes for ever finer mandala symmetry. Only the picture is mirrored, not the simulation.")
        add("effects.feedback", "Feedback", .effects, 0, 0.98, 0,
            "Mixes the previous output frame into the new one. A little gives motion trails and a dreamy smear; high values build long, ghostly after-images. 0 shows only the current frame.")
        add("effects.bloomThreshold", "Bloom threshold", .effects, 0, 1, 0.6,
            "Brightness above which pixels start to bloom. Lower it to let more of the picture glow (a soft haze over everything); raise it so only the brightest highways glow.")
        add("effects.bloom", "Bloom", .effects, 0, 2, 0.4,
            "Strength of the glow spread around bright pixels, at several sizes. Higher values give a luminous, neon halo; 0 turns bloom off for a crisp picture.")
        add("effects.vignette", "Vignette", .effects, 0, 1, 0.3,
            "Darkens the corners and edges toward the frame's border, pulling the eye to the centre. 0 is off; 1 fades the corners almost to black.")
        add("effects.saturation", "Saturation", .effects, 0, 2, 1,
            "Colour intensity. 1 is neutral, 0 turns the picture grey, 2 makes colours very vivid.")
        add("effects.contrast", "Contrast", .effects, 0, 2, 1,
            "Spread between dark and bright around middle grey. 1 is neutral, lower values flatten the picture into a soft haze, higher values make it punchy with deeper darks and harder highlights.")
        precondition(out.count == ParamKey.count, "registry must hold \(ParamKey.count) scalars")
        return out
    }

    private static func buildOthers() -> [OtherParamSpec] {
        var out: [OtherParamSpec] = [
            OtherParamSpec(id: "spawn.pattern", label: "Spawn pattern", section: .spawn, kind: .choice,
                           choices: SpawnPattern.allCases.map(\.rawValue), defaultValue: SpawnPattern.random.rawValue,
                           help: "Where agents start when the simulation is (re)seeded: scattered at random, packed in a disc or a ring, bursting from the centre, along a spiral, in one sector per species, or in a handful of clusters. Early frames differ most; the pattern also shapes which territories the species hold."),
            OtherParamSpec(id: "render.blendMode", label: "Blend mode", section: .render, kind: .choice,
                           choices: BlendMode.allCases.map(\.rawValue), defaultValue: BlendMode.additive.rawValue,
                           help: "How species colours combine with the background. Additive: trails emit light, overlapping species mix toward white and glow — best on dark backgrounds (on bright ones it saturates). Paint: trails are ink on paper, overlapping species darken and mix like pigment — works on any background, with no glow."),
            OtherParamSpec(id: "render.background", label: "Background", section: .render, kind: .color,
                           choices: [], defaultValue: "#000000",
                           help: "The colour behind the trails. Dark backgrounds suit additive light; pale ones suit paint."),
        ]
        for s in 0..<ParamKey.speciesCount {
            out.append(OtherParamSpec(id: "species.\(s).color", label: "Colour", section: .species, kind: .color,
                                      choices: [], defaultValue: PresetParams.defaultColors[s].hex,
                                      help: "The colour this species' trails are drawn in.", species: s))
        }
        return out
    }
}

/// A non-scalar parameter (choice or colour), for listings and the UI.
public struct OtherParamSpec: Sendable, Hashable {
    public let id: String
    public let label: String
    public let section: ParamSection
    public let kind: ParamKind
    /// Allowed values for choices; empty for colours.
    public let choices: [String]
    public let defaultValue: String
    public let help: String
    public var species: Int? = nil
}
