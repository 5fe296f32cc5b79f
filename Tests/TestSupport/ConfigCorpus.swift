import Foundation

// The audio-config bad-input corpus, shared by AudioReactiveTests (the
// strict loader and the store) and LiveAppTests (imports through the audio
// panel). Plain data: no dependency on the code under test.

/// The corpus and the valid config it is made from.
public enum ConfigCorpus {
    /// A valid config (every malformed one is a variant of it).
    public static var goodText: String { corpusBaseText }
    /// Malformed configs, each with the error it must produce.
    public static let malformed: [MalformedConfig] = buildCorpus()
}

/// One malformed config and the error it must produce.
public struct MalformedConfig: Sendable {
    public let label: String
    public let bytes: [UInt8]
    /// Expected JSON path of the (first matching) error.
    public let path: String
    /// Text the error's reason must contain.
    public let reason: String
    /// Expected line:column, or nil when the text cannot be read at all (over the size limit).
    public let at: String?

    public init(_ label: String, _ text: String, path: String, _ reason: String, at: String? = "") {
        self.init(label, Array(text.utf8), path: path, reason, at: at)
    }

    public init(_ label: String, _ bytes: [UInt8], path: String, _ reason: String, at: String? = "") {
        self.label = label
        self.bytes = bytes
        self.path = path
        self.reason = reason
        self.at = at
    }
}

/// A valid config the malformed ones are made from (line numbers matter).
private let corpusBaseText = """
{
  "format": 1,
  "name": "Test",
  "enabled": true,
  "gain": 0,
  "tuning": {"attack": 10, "gateLow": 3, "gateHigh": 8},
  "routes": [
    {"source": "bass", "target": "species.*.moveSpeed", "mode": "level", "depth": 0.5},
    {"source": "full", "target": "effects.headGlow", "mode": "transient", "depth": 0.4}
  ]
}
"""

private func variant(_ old: String, _ new: String) -> String {
    precondition(corpusBaseText.contains(old), old)
    return corpusBaseText.replacingOccurrences(of: old, with: new)
}

private let route0 = #"{"source": "bass", "target": "species.*.moveSpeed", "mode": "level", "depth": 0.5}"#

private func route0(_ old: String, _ new: String) -> String {
    variant(route0, route0.replacingOccurrences(of: old, with: new))
}

private func buildCorpus() -> [MalformedConfig] {
    var g: UInt64 = 0x1234_5678
    let garbage: [UInt8] = (0..<4096).map { _ in
        g = g &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: g >> 33)
    }
    let deep = "{\"format\": 1, \"name\": \"Deep\", \"x\": " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}"
    let tooManyRoutes = variant(route0, Array(repeating: route0, count: 256).joined(separator: ",\n"))
    let tenMB = Array(corpusBaseText.utf8) + [UInt8](repeating: 0x20, count: 10 << 20)
    let justOver = Array(corpusBaseText.utf8) + [UInt8](repeating: 0x20, count: (1 << 20) + 1 - corpusBaseText.utf8.count)
    let badUTF8 = Array(#"{"format": 1, "name": "Te"#.utf8) + [0xFF, 0xFE] + Array(#"st"}"#.utf8)
    return [
        MalformedConfig("empty file", "", path: "(top level)", "empty", at: "1:1"),
        MalformedConfig("only whitespace", "  \n\n ", path: "(top level)", "only whitespace"),
        MalformedConfig("truncated in the middle", String(corpusBaseText.prefix(corpusBaseText.count / 2)), path: "routes[0]", "end of input"),
        MalformedConfig("truncated inside a string", String(corpusBaseText[..<corpusBaseText.range(of: "Test")!.upperBound].dropLast()), path: "name", "unterminated string", at: "3:11"),
        MalformedConfig("binary garbage", garbage, path: "(top level)", "UTF-8"),
        MalformedConfig("binary garbage in ASCII range", Array("\u{01}\u{02}PK\u{03}\u{04}".utf8), path: "(top level)", "control character"),
        MalformedConfig("invalid UTF-8 in the name", badUTF8, path: "(top level)", "invalid UTF-8", at: "1:26"),
        MalformedConfig("lone surrogate escape", variant(#""Test""#, #""\ud800x""#), path: "name", "surrogate"),
        MalformedConfig("10 MB file", tenMB, path: "(top level)", "over the limit of 1048576 bytes", at: nil),
        MalformedConfig("1 byte over 1 MiB", justOver, path: "(top level)", "over the limit", at: nil),
        MalformedConfig("deep nesting", deep, path: "x" + String(repeating: "[0]", count: 63), "nesting deeper than 64"),
        MalformedConfig("duplicate top-level key", variant(#""gain": 0,"#, #""gain": 0, "gain": 1,"#), path: "gain", "duplicate key 'gain' (first at 5:3)", at: "5:14"),
        MalformedConfig("duplicate key in a route", route0(#""depth": 0.5"#, #""depth": 0.5, "depth": 0.6"#), path: "routes[0].depth", "duplicate key 'depth'"),
        MalformedConfig("NaN", variant(#""gain": 0"#, #""gain": NaN"#), path: "gain", "finite", at: "5:11"),
        MalformedConfig("Infinity", variant(#""gain": 0"#, #""gain": Infinity"#), path: "gain", "finite"),
        MalformedConfig("-Infinity", variant(#""attack": 10"#, #""attack": -Infinity"#), path: "tuning.attack", "finite"),
        MalformedConfig("huge number", variant(#""attack": 10"#, #""attack": 1e999"#), path: "tuning.attack", "out of range", at: "6:24"),
        MalformedConfig("number out of range", variant(#""gain": 0"#, #""gain": 100"#), path: "gain", "must be within -40…40, got 100", at: "5:11"),
        MalformedConfig("wrong type: enabled", variant(#""enabled": true"#, #""enabled": "yes""#), path: "enabled", "expected true or false, got a string", at: "4:14"),
        MalformedConfig("wrong type: routes", variant(#""routes": ["#, #""routes": {"a": ["#).replacingOccurrences(of: "  ]\n}", with: "  ]}\n}"), path: "routes", "expected an array, got an object"),
        MalformedConfig("wrong type: tuning", variant(#"{"attack": 10, "gateLow": 3, "gateHigh": 8}"#, "[10, 3, 8]"), path: "tuning", "expected an object, got an array"),
        MalformedConfig("wrong type: depth", route0(#""depth": 0.5"#, #""depth": "0.5""#), path: "routes[0].depth", "expected a number, got a string", at: "8:83"),
        MalformedConfig("wrong type: route", variant(route0, #""bass -> moveSpeed""#), path: "routes[0]", "expected an object, got a string"),
        MalformedConfig("wrong type: top level", "[1, 2, 3]", path: "(top level)", "expected an object, got an array"),
        MalformedConfig("top level null", "null", path: "(top level)", "expected an object, got null"),
        MalformedConfig("unknown source", route0(#""bass""#, #""bas""#), path: "routes[0].source", "unknown source 'bas' (expected one of: sub, bass,", at: "8:16"),
        MalformedConfig("unknown target", route0("species.*.moveSpeed", "foo.bar"), path: "routes[0].target", "unknown parameter id 'foo.bar'", at: "8:34"),
        MalformedConfig("unknown mode", route0(#""level""#, #""pulse""#), path: "routes[0].mode", "unknown mode 'pulse'"),
        MalformedConfig("respawn target", route0("species.*.moveSpeed", "global.agents"), path: "routes[0].target", "respawns agents"),
        MalformedConfig("respawn wildcard target", route0("species.*.moveSpeed", "species.*.population"), path: "routes[0].target", "respawns agents"),
        MalformedConfig("sim speed target", route0("species.*.moveSpeed", "global.simSpeed"), path: "routes[0].target", "sim speed"),
        MalformedConfig("colour target", route0("species.*.moveSpeed", "species.1.color"), path: "routes[0].target", "only numeric parameters"),
        MalformedConfig("unknown format", variant(#""format": 1"#, #""format": 2"#), path: "format", "unsupported format 2 (this version reads format 1)", at: "2:13"),
        MalformedConfig("format as a string", variant(#""format": 1"#, #""format": "1""#), path: "format", "expected the format version number 1"),
        MalformedConfig("missing format", variant("  \"format\": 1,\n", ""), path: "(top level)", "missing required field 'format'", at: "1:1"),
        MalformedConfig("missing name", variant("  \"name\": \"Test\",\n", ""), path: "(top level)", "missing required field 'name'"),
        MalformedConfig("empty name", variant(#""Test""#, #""  ""#), path: "name", "must not be empty"),
        MalformedConfig("name too long", variant(#""Test""#, "\"" + String(repeating: "n", count: 65) + "\""), path: "name", "at most 64"),
        MalformedConfig("control character in name", variant(#""Test""#, "\"Te\u{07}st\""), path: "name", "control character"),
        MalformedConfig("too many routes", tooManyRoutes, path: "routes", "257 elements, at most 256"),
        MalformedConfig("route without target", route0(#""target": "species.*.moveSpeed", "#, ""), path: "routes[0]", "missing required field 'target'"),
        MalformedConfig("depth out of range", route0(#""depth": 0.5"#, #""depth": 3"#), path: "routes[0].depth", "must be within -2…2"),
        MalformedConfig("negative smoothing", route0(#""depth": 0.5"#, #""depth": 0.5, "smoothing": -5"#), path: "routes[0].smoothing", "must be within 0…10000"),
        MalformedConfig("zero curve", route0(#""depth": 0.5"#, #""depth": 0.5, "curve": 0"#), path: "routes[0].curve", "must be within 0.1…10"),
        MalformedConfig("seven band edges", variant(#""gain": 0,"#, #""gain": 0, "bands": [20, 60, 250, 500, 2000, 4000, 20000],"#), path: "bands", "expected 8 band edges"),
        MalformedConfig("band edges not increasing", variant(#""gain": 0,"#, #""gain": 0, "bands": [20, 60, 250, 200, 2000, 4000, 6000, 20000],"#), path: "bands[3]", "must increase"),
        MalformedConfig("gate high below gate low", variant(#""gateHigh": 8"#, #""gateHigh": 1"#), path: "tuning.gateHigh", "must not be below gateLow"),
        MalformedConfig("trailing garbage", corpusBaseText + "\n}", path: "(top level)", "after the JSON value", at: "12:1"),
        MalformedConfig("trailing comma", variant("\"depth\": 0.4}\n", "\"depth\": 0.4},\n"), path: "routes", "trailing comma", at: "10:3"),
        MalformedConfig("single quotes", variant(#""name": "Test""#, #"'name': 'Test'"#), path: "(top level)", "double quotes"),
        MalformedConfig("comment", variant("  \"gain\": 0,", "  // gain\n  \"gain\": 0,"), path: "(top level)", "expected a key in double quotes"),
    ]
}

