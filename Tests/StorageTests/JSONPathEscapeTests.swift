import Storage
import Testing

/// A key with a newline or another invisible character is shown escaped in
/// a path, so an error message stays one line (found by the fuzzer: a
/// preset key "\n" split the refusal over two lines).
@Suite struct JSONPathEscapeTests {
    @Test func controlAndFormatCharactersInKeysAreEscaped() {
        #expect(JSONPath([.key("a\nb")]).description == #"["a\u000Ab"]"#)
        #expect(JSONPath([.key("x"), .key("\u{FEFF}")]).description == #"x["\uFEFF"]"#)
        #expect(JSONPath([.key("say \"hi\"")]).description == #"["say \"hi\""]"#)
        let e = JSONError(file: "f.json", position: SourcePosition(line: 2, column: 3), path: JSONPath([.key("\n")]), reason: "unknown key")
        #expect(!e.description.contains("\n"))
        // A reason quoting the file's contents too (found the same way: "unknown key '\n'").
        let quoted = JSONError(file: "f.json", position: .unknown, path: .root, reason: "unknown key '\n\u{202E}'")
        #expect(quoted.description == #"f.json: unknown key '\u000A\u202E'"#)
    }
}
