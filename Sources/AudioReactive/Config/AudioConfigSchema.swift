import Engine
import Storage

/// The JSON Schema (draft 2020-12) of audio config files, built from the same
/// constants the strict loader checks, so the two cannot drift apart.
/// `docs/audio-config.schema.json` is this text (`physarum config schema`).
public enum AudioConfigSchema {
    /// The schema as pretty JSON text.
    public static var text: String { JSONWriter.pretty(node) }

    /// The schema as a tree.
    public static var node: JSONNode {
        func num(_ d: Double) -> JSONNode { .number(d) }
        func range(_ r: ClosedRange<Double>, _ description: String, default d: Double? = nil) -> JSONNode {
            var m: [(String, JSONNode)] = [("type", .string("number")), ("minimum", num(r.lowerBound)), ("maximum", num(r.upperBound))]
            if let d { m.append(("default", num(d))) }
            m.append(("description", .string(description)))
            return .object(m)
        }
        func bool(_ description: String, default d: Bool) -> JSONNode {
            .object([("type", .string("boolean")), ("default", .bool(d)), ("description", .string(description))])
        }
        func strings(_ values: [String], _ description: String) -> JSONNode {
            .object([("type", .string("string")), ("enum", .array(values.map(JSONNode.string))), ("description", .string(description))])
        }
        let defaults = AudioTuning()
        let tuningProps = AudioTuning.fields.filter { $0.placement == .tuning }.map { f in
            (f.key, range(f.range, f.helpWithUnit, default: defaults[field: f]))
        }
        let configProps = AudioTuning.fields.filter { $0.placement == .config }.map { f in
            (f.key, range(f.range, f.helpWithUnit, default: defaults[field: f]))
        }
        let route: JSONNode = .object([
            ("type", .string("object")),
            ("description", .string("One mapping from an audio source to a parameter: effective = from01(to01(base) + depth × shaped signal), summed over routes and clamped.")),
            ("required", .array(["source", "target", "depth"].map(JSONNode.string))),
            ("properties", .object([
                ("source", strings(RouteSource.allCases.map(\.rawValue), "a band, full (broadband), or the beat tracker: beat (a pulse on each beat), bar (on each downbeat), phase (a 0…1 ramp through each beat)")),
                ("target", strings(RouteTarget.allIDs, "a modulatable parameter id; species.*.X moves every species (respawn parameters and global.simSpeed are not targets)")),
                ("mode", .object([("type", .string("string")), ("enum", .array(RouteMode.allCases.map { .string($0.rawValue) })),
                                  ("default", .string("level")), ("description", .string("level: follow the band's level; transient: follow hits"))])),
                ("depth", range(Route.depthRange, "how far the route moves its target, in the target's 0…1 space (negative moves down)")),
                ("smoothing", range(Route.smoothingRange, "one-pole smoothing time constant of the signal, ms")),
                ("curve", range(Route.curveRange, "exponent on the signal: >1 reacts to loud parts only, <1 to quiet ones", default: 1)),
                ("invert", bool("use 1 − signal (push in silence, relax when loud)", default: false)),
                ("muted", bool("silenced but kept", default: false)),
            ])),
            ("additionalProperties", .bool(true)),
        ])
        return .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("title", .string("Physarum Live audio config")),
            ("description", .string("How sound is analysed and how it moves the picture. Files are at most \(AudioConfig.maxFileSize) bytes of UTF-8 JSON without duplicate keys. Unknown keys are reported as warnings and kept when the config is saved again. Also checked by the loader: tuning.gateHigh ≥ tuning.gateLow, band edges strictly increasing.")),
            ("type", .string("object")),
            ("required", .array([.string("format"), .string("name")])),
            ("properties", .object([
                ("format", .object([("const", num(Double(AudioConfig.formatVersion))), ("description", .string("format version"))])),
                ("name", .object([("type", .string("string")), ("minLength", num(1)), ("maxLength", num(Double(AudioConfig.maxNameLength))),
                                  ("description", .string("display name"))])),
                ("enabled", bool("master switch: routes act only when true", default: true)),
                (AudioTuning.autoGainKey, bool(AudioTuning.autoGainHelp, default: true)),
            ] + configProps + [
                ("reactivity", range(AudioConfig.reactivityRange, "global reactivity: scales every route's depth", default: 1)),
                ("tuning", .object([("type", .string("object")), ("properties", .object(tuningProps)), ("additionalProperties", .bool(true))])),
                ("bands", .object([
                    ("type", .string("array")),
                    ("description", .string("8 increasing band edges in Hz delimiting sub, bass, lowMid, mid, highMid, presence, brilliance; default \(AudioBandEdges.standard.map(JSONWriter.number).joined(separator: ", "))")),
                    ("items", range(AudioBandEdges.range, "edge frequency, Hz")),
                    ("minItems", num(Double(AudioBandEdges.count))), ("maxItems", num(Double(AudioBandEdges.count))),
                ])),
                ("routes", .object([("type", .string("array")), ("maxItems", num(Double(AudioConfig.maxRoutes))),
                                    ("items", .object([("$ref", .string("#/$defs/route"))]))])),
            ])),
            ("additionalProperties", .bool(true)),
            ("$defs", .object([("route", route)])),
        ])
    }
}
