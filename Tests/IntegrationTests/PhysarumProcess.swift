import Foundation

/// Runs the real `physarum` binary (PHYSARUM_BIN, else the one built next to
/// the test bundle) and collects its exit status and output.
enum PhysarumProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The binary under test.
    static var binary: String {
        if let b = ProcessInfo.processInfo.environment["PHYSARUM_BIN"], !b.isEmpty { return b }
        // The test bundle sits in .build/<triple>/<config>/; physarum beside it.
        let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundlePath
            ?? CommandLine.arguments.first ?? ""
        return ((bundle as NSString).deletingLastPathComponent as NSString).appendingPathComponent("physarum")
    }

    /// Runs `physarum args…` with extra environment variables and waits for it.
    static func run(_ args: [String], environment extra: [String: String] = [:]) throws -> Result {
        try run(tool: binary, args, environment: extra)
    }

    /// Runs any program to completion and collects its exit status and output.
    /// Output goes through files, not pipes: a pipe's write end can leak into
    /// other children the tests start and keep a read from ever ending.
    static func run(tool: String, _ args: [String], environment extra: [String: String] = [:]) throws -> Result {
        let dir = FileManager.default.temporaryDirectory
        let outURL = dir.appendingPathComponent("physarum-run-\(UUID().uuidString).out")
        let errURL = dir.appendingPathComponent("physarum-run-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (k, v) in extra { env[k] = v }
        p.environment = env
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        try out.close()
        try err.close()
        return Result(status: p.terminationStatus,
                      stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
                      stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }
}
