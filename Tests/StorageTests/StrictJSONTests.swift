import Engine
import Foundation
import Testing
@testable import Storage

/// The first syntax error of `text`, or nil when it parses.
private func syntaxError(_ text: String, limit: Int = 1 << 20, maxDepth: Int = 64) -> JSONError? {
    do {
        _ = try StrictJSON.parse(text: text, limit: limit, maxDepth: maxDepth)
        return nil
    } catch {
        return error
    }
}

private func syntaxError(bytes: [UInt8]) -> JSONError? {
    do {
        _ = try StrictJSON.parse(bytes: bytes, limit: 1 << 20)
        return nil
    } catch {
        return error
    }
}

@Suite struct StrictJSONParseTests {
    @Test func parsesValuesWithPositions() throws {
        let text = """
        {
          "name": "Zoë ✓",
          "list": [1, -2.5e3, true, null],
          "nested": {"k": "v"}
        }
        """
        let root = try StrictJSON.parse(text: text)
        let o = try #require(root.object)
        #expect(o.keys == ["name", "list", "nested"])
        #expect(root.position == SourcePosition(line: 1, column: 1))
        #expect(o["name"]?.string == "Zoë ✓")
        #expect(o["name"]?.position == SourcePosition(line: 2, column: 11))
        #expect(o.member("list")?.keyPosition == SourcePosition(line: 3, column: 3))
        let list = try #require(o["list"]?.array)
        #expect(list.map(\.value) == [.number(1), .number(-2500), .bool(true), .null])
        #expect(list[1].position == SourcePosition(line: 3, column: 15))
        #expect(o["nested"]?.object?["k"]?.position == SourcePosition(line: 4, column: 19))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let root = try StrictJSON.parse(text: #"{"ééé": "ü", "x": 1}"#)
        // {=1 "=2 é=3 é=4 é=5 "=6 :=7 space=8 "ü"=9…11 ,=12 space=13, so "x" starts at column 14.
        #expect(root.object?.member("x")?.keyPosition == SourcePosition(line: 1, column: 14))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let root = try StrictJSON.parse(text: #"["a\"b\\c\/d\n\t\u00e9\ud83d\ude00\u0041"]"#)
        #expect(root.array?.first?.string == "a\"b\\c/d\n\té😀A")
    }

    @Test func skipsByteOrderMark() throws {
        let root = try StrictJSON.parse(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8), limit: 100)
        #expect(root.object?["a"]?.number == 1)
        #expect(root.object?["a"]?.position == SourcePosition(line: 1, column: 7))
    }

    @Test func writerRoundTrips() throws {
        let text = #"{"b": [1, 2.5, 1e-7, -0.1, 123456789012345678, "x\u0001y"], "a": {"z": null, "y": [[], {}]}, "c": false}"#
        let root = try StrictJSON.parse(text: text)
        for out in [JSONWriter.pretty(root), JSONWriter.compact(root)] {
            let again = try StrictJSON.parse(text: out)
            #expect(JSONWriter.compact(again) == JSONWriter.compact(root))
            #expect(again.object?.keys == ["b", "a", "c"])
        }
        #expect(JSONWriter.number(0.1) == "0.1")
        #expect(JSONWriter.number(3) == "3")
    }

    @Test func rejectsDuplicateKeysAtTheSecondOne() throws {
        let e = try #require(syntaxError("{\n  \"a\": 1,\n  \"b\": {\"x\": 1, \"x\": 2}\n}"))
        #expect(e.position == SourcePosition(line: 3, column: 17))
        #expect(e.path.description == "b.x")
        #expect(e.reason.contains("duplicate key 'x' (first at 3:9)"))
    }

    @Test(arguments: [
        (#"{"a": NaN}"#, "a", "NaN"),
        (#"{"a": Infinity}"#, "a", "finite"),
        (#"{"a": -Infinity}"#, "a", "finite"),
        (#"[1, nan]"#, "[1]", "finite"),
        (#"{"a": 1e400}"#, "a", "out of range"),
        (#"{"a": -1e309}"#, "a", "out of range"),
        (#"{"a": 1} x"#, "(top level)", "after the JSON value"),
        (#"{"a": 1}}"#, "(top level)", "after the JSON value"),
        ("{\"a\": \"line\nbreak\"}", "a", "control character"),
        ("{\"a\": \"tab\there\"}", "a", "control character"),
        (#"{"a": 1,}"#, "(top level)", "trailing comma"),
        (#"[1, 2,]"#, "(top level)", "trailing comma"),
        (#"{'a': 1}"#, "(top level)", "double quotes"),
        (#"{"a": 01}"#, "a", "leading zeros"),
        (#"{"a": 1.}"#, "a", "digit after '.'"),
        (#"{"a": .5}"#, "a", "expected a value"),
        (#"{"a": +1}"#, "a", "expected a value"),
        (#"{"a": 1e}"#, "a", "exponent"),
        (#"{"a": "abc"#, "a", "unterminated string"),
        (#"{"a": "\x"}"#, "a", "invalid escape"),
        (#"{"a": "\ud800"}"#, "a", "surrogate"),
        (#"{"a": "\udc00x"}"#, "a", "surrogate"),
        (#"{"a": tru}"#, "a", "unexpected word 'tru'"),
        (#"{"a" 1}"#, "(top level)", "expected ':'"),
        (#"{"a": 1 "b": 2}"#, "(top level)", "expected ',' or '}'"),
        (#"{"routes": [{}, {}, {"target": foo}]}"#, "routes[2].target", "unexpected word 'foo'"),
        (#"[1, 2"#, "(top level)", "missing ']'"),
        ("", "(top level)", "empty"),
        ("   \n ", "(top level)", "only whitespace"),
    ] as [(String, String, String)])
    func rejectsMalformedText(text: String, path: String, reason: String) throws {
        let e = try #require(syntaxError(text), "should be rejected: \(text)")
        #expect(e.path.description == path, "\(e)")
        #expect(e.reason.contains(reason), "\(e)")
        #expect(e.position.isKnown)
    }

    @Test func reportsLineAndColumnOfTheOffendingCharacter() throws {
        let e = try #require(syntaxError("{\n  \"gain\": 1,\n  \"reactivity\": NaN\n}"))
        #expect(e.description == "3:17: reactivity: 'NaN' is not allowed: JSON numbers must be finite (no NaN or Infinity)")
    }

    @Test func rejectsInvalidUTF8WithItsPosition() throws {
        let bytes = Array("{\n  \"name\": \"ab".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        let e = try #require(syntaxError(bytes: bytes))
        #expect(e.position == SourcePosition(line: 2, column: 14))
        #expect(e.reason.contains("UTF-8"))
        // Overlong encoding and encoded surrogates are invalid too.
        #expect(syntaxError(bytes: Array(#"[""#.utf8) + [0xC0, 0xAF] + Array(#""]"#.utf8))?.reason.contains("UTF-8") == true)
        #expect(syntaxError(bytes: Array(#"[""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""]"#.utf8))?.reason.contains("UTF-8") == true)
        // Truncated sequence at the very end.
        #expect(syntaxError(bytes: Array(#"["x"]"#.utf8) + [0xE2, 0x82])?.reason.contains("UTF-8") == true)
    }

    @Test func binaryGarbageIsAnErrorNotACrash() {
        var g = SeededRandom(state: 7)
        for _ in 0..<200 {
            let n = Int(g.next() % 300)
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            _ = syntaxError(bytes: bytes)  // must return, whatever it says
        }
        #expect(syntaxError(bytes: [0x00, 0xFF, 0x12, 0x7B]) != nil)
    }

    @Test func limitsNestingDepth() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(syntaxError(ok) == nil)
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let e = try #require(syntaxError(deep))
        #expect(e.reason.contains("nesting deeper than 64"))
        // Very deep input fails fast instead of overflowing the stack.
        let huge = String(repeating: "{\"a\":", count: 100_000)
        #expect(syntaxError(huge)?.reason.contains("nesting") == true)
    }

    @Test func limitsSize() throws {
        let text = "[" + String(repeating: "1,", count: 600) + "1]"
        let e = try #require(syntaxError(text, limit: 1000))
        #expect(e.reason.contains("over the limit of 1000 bytes"))
        #expect(!e.position.isKnown)
        #expect(syntaxError(text, limit: 2000) == nil)
    }
}

@Suite struct JSONObjectReaderTests {
    private let doc = """
    {
      "name": "Club",
      "gain": 9,
      "mode": "loud",
      "flag": 1,
      "extra": {"keep": [1, 2]},
      "routes": [{"target": "a"}, {"target": "b"}, {"target": "foo.bar"}]
    }
    """

    @Test func reportsEveryProblemWithPathAndPosition() throws {
        enum Mode: String, CaseIterable { case level, transient }
        let root = try StrictJSON.parse(text: doc)
        let d = JSONDiagnostics(file: "club.json")
        var r = try #require(d.object(root, at: .root))
        let name = r.string("name", required: true, maxLength: 64)
        let gain = r.number("gain", in: 0...4)
        let mode = r.choice("mode", as: Mode.self)
        let flag = r.bool("flag")
        let missing = r.number("missing", required: true)
        let absent = r.number("absent")
        #expect(name == "Club")
        #expect(gain == nil && mode == nil && flag == nil && missing == nil && absent == nil)
        let routesField = r.array("routes", maxCount: 256)
        let routes = try #require(routesField)
        for (k, node) in routes.enumerated() {
            var rr = try #require(d.object(node, at: r.path.appending("routes").appending(k)))
            let target = rr.string("target", required: true)
            if let t = target, t.contains(".") {
                d.error("unknown parameter id '\(t)'", at: rr.path.appending("target"), position: rr.node.object!["target"]!.position)
            }
        }
        let unknown = r.unknownMembers()
        #expect(unknown.map(\.key) == ["extra"])
        #expect(unknown.first?.value.object?["keep"]?.array?.count == 2)
        #expect(d.errors.map(\.description) == [
            "club.json:3:11: gain: must be within 0…4, got 9",
            "club.json:4:11: mode: unknown mode 'loud' (expected one of: level, transient)",
            "club.json:5:11: flag: expected true or false, got a number",
            "club.json:1:1: (top level): missing required field 'missing'",
            "club.json:7:59: routes[2].target: unknown parameter id 'foo.bar'",
        ])
        #expect(d.warnings.map(\.description) == ["club.json:6:3: extra: unknown key 'extra' is ignored (kept when saved)"])
        #expect(throws: JSONErrorList.self) { try d.throwIfErrors() }
    }

    @Test func nullReadsAsAbsentForOptionalFieldsOnly() throws {
        let root = try StrictJSON.parse(text: #"{"a": null, "b": null}"#)
        let d = JSONDiagnostics()
        var r = try #require(d.object(root, at: .root))
        let a = r.number("a")
        #expect(a == nil)
        #expect(!d.hasErrors)
        let b = r.number("b", required: true)
        #expect(b == nil)
        #expect(d.errors.first?.reason == "required field 'b' must not be null")
    }

    @Test func pathsQuoteKeysThatAreNotPlainWords() {
        let p = JSONPath.root.appending("routes").appending(2).appending("a b").appending("species.*.moveSpeed")
        #expect(p.description == #"routes[2]["a b"].species.*.moveSpeed"#)
    }
}
