import Foundation
import Testing
import TestSupport

/// physarum(1), as scripts/package makes it (scripts/manpage from the
/// binary's own --help texts), read back through `man` the way a user reads
/// it: every option and subcommand --help names is on the page, and the page
/// names no option --help does not.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "needs man (man-db)"))
struct ManPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every `--option` a text names.
    static func options(_ text: String) -> Set<String> {
        let re = try! NSRegularExpression(pattern: "(?<![A-Za-z0-9-])--[a-z][a-z0-9-]*")
        return Set(re.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { (text as NSString).substring(with: $0.range) })
    }

    @Test func theManPageSaysWhatHelpSays() throws {
        let bin = AppProcess.binary
        let top = try PhysarumProcess.run(["--help"]).stdout
        let subcommands = top.components(separatedBy: "Subcommands:\n").last?.split(separator: "\n")
            .prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) } ?? []
        #expect(subcommands.count >= 5, "subcommands listed: \(subcommands)")
        var help = top
        for s in subcommands { help += "\n" + (try PhysarumProcess.run([s, "--help"]).stdout) }

        let dir = makeTempDir("manpage")
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = try PhysarumProcess.run(tool: "/bin/bash", [Self.root.appendingPathComponent("scripts/manpage").path, bin, "0.0"])
        #expect(page.status == 0, "scripts/manpage: \(page.stderr)")
        let roff = dir.appendingPathComponent("physarum.1")
        try page.stdout.write(to: roff, atomically: true, encoding: .utf8)
        let shown = try PhysarumProcess.run(tool: "/usr/bin/man", ["-l", roff.path], environment: ["MANWIDTH": "120", "MAN_KEEP_FORMATTING": "0", "PAGER": "cat"])
        #expect(shown.status == 0, "man -l: \(shown.stderr)")
        // man's own formatting (bold by overstrike) removed.
        let text = shown.stdout.replacingOccurrences(of: "\u{8}.", with: "", options: .regularExpression)
        #expect(text.contains("physarum - an audio-reactive") || text.contains("physarum — an audio-reactive") || text.contains("NAME"))
        let inHelp = Self.options(help), onPage = Self.options(text)
        #expect(inHelp.count > 40, "--help names its options: \(inHelp.count)")
        #expect(inHelp.subtracting(onPage).isEmpty, "options of --help missing on the page: \(inHelp.subtracting(onPage).sorted())")
        #expect(onPage.subtracting(inHelp).isEmpty, "options on the page that --help does not name: \(onPage.subtracting(inHelp).sorted())")
        for s in subcommands { #expect(text.contains("PHYSARUM \(s.uppercased())"), "a section for \(s)") }
        #expect(text.contains("--stream") && text.contains("--pipewire") && text.contains("--v4l2"))
    }
}
