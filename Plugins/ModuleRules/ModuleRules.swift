import Foundation
import PackagePlugin

/// The module rule of DESIGN.md, enforced by the build: Storage, Engine and
/// LiveCore import no C module (a `C…` system library, or one of the C/C++
/// shims: ImGuiShim, MidiShim, LinkShim).
/// SwiftPM's `--explicit-target-dependency-import-check` does not see
/// system-library modules a target reaches through its dependencies (an
/// `import CPulse` in LiveCore compiles: LiveCore → AudioReactive → CPulse),
/// so this plugin reads the target's sources when the build is planned and
/// stops it with FILE:LINE for each such import. It adds no build commands.
@main
struct ModuleRules: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        var found = 0
        for file in target.sourceFiles(withSuffix: "swift") {
            let path = file.url.path
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let module = Self.cModuleImported(by: line) else { continue }
                Diagnostics.error("\(path):\(n + 1): \(target.name) must not import the C module \(module) (DESIGN.md: C stays at the edges)",
                                  file: path, line: n + 1)
                found += 1
            }
        }
        if found > 0 { throw ModuleRuleError(target: target.name, count: found) }
        return []
    }

    /// The C module a line imports (`import CPulse`, `@_implementationOnly import CFFTW`, `import ImGuiShim`), if any.
    static func cModuleImported(by line: Substring) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        while let w = words.first, w.hasPrefix("@") { words.removeFirst() }
        guard words.count >= 2, words[0] == "import" else { return nil }
        let name = String(words[1].split(separator: ".").first ?? words[1])
        if ["ImGuiShim", "MidiShim", "LinkShim"].contains(name) { return name }
        guard name.count > 1, name.first == "C", let second = name.dropFirst().first, second.isUppercase else { return nil }
        return name
    }
}

struct ModuleRuleError: Error, CustomStringConvertible {
    let target: String
    let count: Int
    var description: String { "\(target) imports \(count) C module(s); see the errors above" }
}
