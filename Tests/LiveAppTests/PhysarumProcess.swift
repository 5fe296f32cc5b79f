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
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (k, v) in extra { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Read both pipes to the end before waiting, so a chatty child cannot block.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A new empty temporary folder.
    static func temporaryFolder() throws -> String {
        let dir = NSTemporaryDirectory() + "physarum-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
