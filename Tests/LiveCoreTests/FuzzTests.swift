import Foundation
import TestSupport
import Testing

/// A bounded, deterministic run of the structure-aware fuzzer over every
/// decoder (1500 cases or 2 s each: a smoke check that keeps the unit tests'
/// inner loop short; `scripts/fuzz --minutes N` is the real run, long, and
/// keeps reproducers), and the replay of every reproducer kept in
/// Tests/FuzzCorpus. Serialized: a crash handler records the case being run.
@Suite(.serialized) struct FuzzTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzCorpus")
    static let env = ProcessInfo.processInfo.environment
    static let seconds = env["PHYSARUM_FUZZ_SECONDS"].flatMap(Double.init) ?? 2
    static let maxCases = env["PHYSARUM_FUZZ_CASES"].flatMap(Int.init) ?? 1500
    static let seed = env["PHYSARUM_FUZZ_SEED"].flatMap(UInt64.init) ?? 1
    static let save = env["PHYSARUM_FUZZ_OUT"].map { URL(fileURLWithPath: $0) }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func decoderHoldsUnderMutation(_ name: String) throws {
        let target = try #require(FuzzTarget.all.first { $0.name == name })
        let report = FuzzRunner.run(target, seed: Self.seed, maxCases: Self.maxCases, seconds: Self.seconds,
                                    saveTo: Self.save?.appendingPathComponent(name))
        print("fuzz: \(report)")
        #expect(report.cases > 0)
        for f in report.failures.prefix(5) {
            let shown = f.input.count <= 4096 ? Data(f.input).base64EncodedString() : "(\(f.input.count) bytes)"
            Issue.record("\(name): \(f.reason) — input (base64): \(shown)\(f.file.map { " saved as \($0)" } ?? "")")
        }
    }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func reproducersStayFixed(_ name: String) throws {
        let target = try #require(FuzzTarget.all.first { $0.name == name })
        let (count, failures) = FuzzRunner.replay(target, folder: Self.corpus)
        #expect(failures.isEmpty, "\(failures)")
        if count > 0 { print("fuzz: \(name): \(count) reproducers replayed") }
    }

    @Test func theSameSeedGivesTheSameCases() {
        var a = FuzzMutator(seed: 42), b = FuzzMutator(seed: 42)
        let seeds = FuzzTarget.preset.seeds
        for _ in 0..<50 { #expect(a.document(from: seeds) == b.document(from: seeds)) }
        #expect(!seeds.isEmpty, "the shipped presets are the seeds")
    }
}
