import Foundation
import Testing
import TestSupport
@testable import LiveApp

/// Option parsing as a user meets it: repeated options, options where a
/// value belongs, help texts.
@Suite struct CommandLineTests {
    @Test func aRepeatedOptionTakesTheLastValue() throws {
        let o = try LiveOptions.parse(["--agents", "5000", "--agents", "6000"])
        #expect(o.agents == 6000)
    }

    @Test func anOptionIsNotTakenAsTheValueOfAnother() throws {
        #expect(throws: UsageError.self) { try LiveOptions.parse(["--preset", "--no-ui"]) }
        do {
            _ = try LiveOptions.parse(["--preset", "--no-ui"])
        } catch {
            #expect("\(error)" == "--preset needs a value (got the option '--no-ui')")
        }
        // A lone dash and negative numbers are values.
        var r = ArgumentReader(["--script", "-", "--gain", "-3"])
        let script = try r.string("--script"), gain = try r.string("--gain")
        #expect(script == "-" && gain == "-3")
    }

    @Test func benchHelpShowsEveryScenarioNameWhole() {
        let help = BenchCommand.help
        for s in BenchCommand.scenarios {
            let line = help.split(separator: "\n").first { $0.hasPrefix("  " + s.name + " ") }
            #expect(line?.hasSuffix(s.summary) == true, "\(s.name) has a whole line in the help")
        }
    }

    @Test func renderRefusesAnOutputExtensionItCannotWrite() throws {
        let dir = makeTempDir().path
        let gif = dir + "/x.gif"
        let r = try PhysarumProcess.run(["render", "--preset", "neon-veins", "--size", "32x18", "--agents", "1000", "--out", gif])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("'.gif' is not a format"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: gif), "no folder named x.gif")
        try? FileManager.default.removeItem(atPath: dir)
    }
}
