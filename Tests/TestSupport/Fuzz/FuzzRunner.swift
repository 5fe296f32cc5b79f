import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs a `FuzzTarget` for a number of cases or seconds, whichever ends
/// first, from a seed (the same seed gives the same cases). Every failure —
/// a broken invariant, a case slower than `slowLimit` (a hang in the
/// making) — is kept with its input and, with `saveTo`, written there as
/// `<target>-<hash>.bin` (+ `.txt` with the reason): a reproducer that the
/// suite replays once it is in Tests/FuzzCorpus/<target>/. A crash cannot be
/// caught in the process: with `saveTo` set, a signal handler writes the
/// input of the case that crashed to `<saveTo>/crash-<target>.bin` first.
public enum FuzzRunner {
    public struct Failure: Sendable {
        public var reason: String
        public var input: [UInt8]
        public var file: String?
    }

    public struct Report: Sendable, CustomStringConvertible {
        public var target: String
        public var cases = 0
        public var seconds = 0.0
        public var slowest = 0.0
        /// The failures (the last thousand).
        public var failures: [Failure] = []
        /// Failures in all, slow cases among them.
        public var failureCount = 0
        public var hangs = 0
        public var description: String {
            "\(target): \(cases) cases in \(String(format: "%.1f", seconds)) s, \(failureCount - hangs) failures, "
                + "\(hangs) hangs (slowest case \(String(format: "%.3f", slowest)) s)"
        }
    }

    /// FNV-1a of the bytes (reproducer names, chunk seeds).
    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h
    }

    public static func run(_ target: FuzzTarget, seed: UInt64, maxCases: Int, seconds: Double, slowLimit: Double = 2,
                           saveTo: URL? = nil) -> Report {
        var mutator = FuzzMutator(seed: seed ^ hash(Array(target.name.utf8)))
        var report = Report(target: target.name)
        var seen: [String: Int] = [:]
        let clock = ContinuousClock()
        let start = clock.now
        if let saveTo { CrashCapture.arm(saveTo.appendingPathComponent("crash-\(target.name).bin").path) }
        defer { CrashCapture.disarm() }
        while report.cases < maxCases, (clock.now - start) < .seconds(seconds) {
            let input: [UInt8]
            switch target.shape {
            case .document: input = mutator.document(from: target.seeds)
            case .frames(let limit): input = mutator.frameStream(from: target.seeds, limit: limit)
            case .oscPacket: input = mutator.oscPacket(from: target.seeds)
            }
            let began = clock.now
            let problem = input.withUnsafeBufferPointer { buf in
                CrashCapture.current(buf)
                return target.check(input)
            }
            let took = Double((clock.now - began).components.attoseconds) / 1e18 + Double((clock.now - began).components.seconds)
            report.slowest = max(report.slowest, took)
            report.cases += 1
            var reason = problem
            if reason == nil && took > slowLimit { reason = "slow: \(String(format: "%.2f", took)) s for one case" }
            if let reason {
                // Keep at most three inputs per kind of failure (numbers masked), the smallest ones.
                let kind = reason.replacingOccurrences(of: "[0-9]+", with: "N", options: .regularExpression)
                seen[kind, default: 0] += 1
                report.failureCount += 1
                if reason.hasPrefix("slow") { report.hangs += 1 }
                var f = Failure(reason: reason, input: input)
                if seen[kind]! <= 3 { f = save(f, target: target.name, to: saveTo) }
                report.failures.append(f)
                if report.failures.count > 1000 { report.failures.removeFirst() }
            }
        }
        let total = clock.now - start
        report.seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
        return report
    }

    /// Replays the reproducers kept for `target` in `folder/<target>/*.bin`;
    /// the failures still there (file name and reason).
    public static func replay(_ target: FuzzTarget, folder: URL) -> (count: Int, failures: [String]) {
        let dir = folder.appendingPathComponent(target.name)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".bin") }.sorted()
        var failures: [String] = []
        for n in names {
            guard let d = FileManager.default.contents(atPath: dir.appendingPathComponent(n).path) else { continue }
            if let r = target.check(Array(d)) { failures.append("\(n): \(r)") }
        }
        return (names.count, failures)
    }

    private static func save(_ f: Failure, target: String, to dir: URL?) -> Failure {
        guard let dir else { return f }
        var out = f
        let base = "\(target)-\(String(hash(f.input), radix: 16))"
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let bin = dir.appendingPathComponent(base + ".bin")
        try? Data(f.input).write(to: bin)
        try? Data((f.reason + "\n").utf8).write(to: dir.appendingPathComponent(base + ".txt"))
        out.file = bin.path
        return out
    }
}

/// Writes the input of the case being run to a file when the process dies
/// of a signal (a trap, a bad access, an abort). Only async-signal-safe calls
/// (write, close, _exit) run in the handler; the file is opened beforehand.
enum CrashCapture {
    nonisolated(unsafe) static var fd: Int32 = -1
    nonisolated(unsafe) static var base: UnsafePointer<UInt8>?
    nonisolated(unsafe) static var count = 0
    static let signals = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE]

    static func arm(_ path: String) {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        fd = open(path + ".partial", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        // Its own stack, so a stack overflow (deep recursion) is caught too.
        if altStack == nil {
            let size = 1 << 16
            var ss = stack_t()
            ss.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            ss.ss_size = size
            altStack = ss.ss_sp
            sigaltstack(&ss, nil)
        }
        for s in signals {
            var sa = sigaction()
            sa.__sigaction_handler.sa_handler = { sig in
                if CrashCapture.fd >= 0, let b = CrashCapture.base { _ = write(CrashCapture.fd, b, CrashCapture.count) }
                _exit(128 + sig)
            }
            sa.sa_flags = Int32(SA_ONSTACK)
            sigaction(s, &sa, nil)
        }
        crashPath = path
    }

    nonisolated(unsafe) static var crashPath: String?
    nonisolated(unsafe) static var altStack: UnsafeMutableRawPointer?

    static func current(_ buf: UnsafeBufferPointer<UInt8>) {
        base = buf.baseAddress
        count = buf.count
    }

    static func disarm() {
        for s in signals { signal(s, SIG_DFL) }
        if fd >= 0 { close(fd) }
        if let p = crashPath { unlink(p + ".partial") }
        fd = -1
        base = nil
        crashPath = nil
    }
}
