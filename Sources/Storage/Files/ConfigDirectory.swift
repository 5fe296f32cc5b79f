import Foundation

/// Finds the shipped `configs/` directory (factory presets, bench setups,
/// audio configs) at run time, wherever the binary or the tests run from.
///
/// Order: the `PHYSARUM_CONFIG_DIR` environment variable (used as given);
/// then, walking up from the running executable's directory, the first
/// `configs/` beside it or in a parent (so `.build/release/physarum` and the
/// test bundle both find the package root's `configs/`), or an installed
/// `../share/physarum/configs`; then `configs/` in the current directory.
/// Pure lookup; safe from any thread.
public enum ConfigDirectory {
    /// Environment variable that overrides the search.
    public static let environmentVariable = "PHYSARUM_CONFIG_DIR"

    /// The outcome of a search: the directory, or every place that was tried.
    public struct Location: Sendable, Hashable {
        /// The `configs/` directory found, nil when none exists.
        public let path: String?
        /// Every candidate, in the order tried.
        public let searched: [String]

        /// A one-line notice for the user when nothing was found.
        public var notice: String? {
            guard path == nil else { return nil }
            return "no configs/ directory found (looked in \(searched.joined(separator: ", "))); set \(ConfigDirectory.environmentVariable) to the folder that holds presets/"
        }
    }

    /// Searches with the process's environment, executable and working directory.
    public static func locate() -> Location {
        locate(environment: ProcessInfo.processInfo.environment,
               executable: executablePath(),
               workingDirectory: FileManager.default.currentDirectoryPath)
    }

    /// Searches with explicit inputs (for tests).
    public static func locate(environment: [String: String], executable: String?, workingDirectory: String) -> Location {
        var searched: [String] = []
        if let env = environment[environmentVariable], !env.isEmpty {
            searched.append(env)
            return Location(path: isDirectory(env) ? standardized(env) : nil, searched: searched)
        }
        if let exe = executable {
            var dir = (standardized(exe) as NSString).deletingLastPathComponent
            var depth = 0
            while !dir.isEmpty && depth < 12 {
                let candidate = (dir as NSString).appendingPathComponent("configs")
                searched.append(candidate)
                if isDirectory(candidate) { return Location(path: candidate, searched: searched) }
                let shared = (dir as NSString).appendingPathComponent("share/physarum/configs")
                if isDirectory(shared) { return Location(path: shared, searched: searched + [shared]) }
                if dir == "/" { break }
                dir = (dir as NSString).deletingLastPathComponent
                depth += 1
            }
        }
        let cwd = (workingDirectory as NSString).appendingPathComponent("configs")
        searched.append(cwd)
        return Location(path: isDirectory(cwd) ? standardized(cwd) : nil, searched: searched)
    }

    /// A subdirectory of the located configs directory (e.g. "presets"), if both exist.
    public static func subdirectory(_ name: String) -> (path: String?, location: Location) {
        let loc = locate()
        guard let base = loc.path else { return (nil, loc) }
        let p = (base as NSString).appendingPathComponent(name)
        return (isDirectory(p) ? p : nil, loc)
    }

    /// The running executable's path (`/proc/self/exe` on Linux).
    static func executablePath() -> String? {
        if let p = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return p }
        return Bundle.main.executablePath ?? CommandLine.arguments.first
    }

    static func isDirectory(_ path: String) -> Bool {
        var d: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &d) && d.boolValue
    }

    static func standardized(_ path: String) -> String {
        let abs = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        return (abs as NSString).standardizingPath
    }
}
