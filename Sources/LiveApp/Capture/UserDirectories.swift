import Foundation

/// The XDG base and user directories (data home, pictures, videos), from the
/// environment and `user-dirs.dirs`, as a desktop user expects them.
/// Pure functions of their inputs, plus `userDirsFile` which reads one small
/// file: call it off the frame path.
enum UserDirectories {
    /// `$HOME`, else the password database's home.
    static func home(_ env: [String: String]) -> String {
        if let h = env["HOME"], h.hasPrefix("/") { return h }
        return NSHomeDirectory()
    }

    /// `$XDG_DATA_HOME` when absolute (the spec ignores relative values), else `~/.local/share`.
    static func dataHome(_ env: [String: String]) -> String {
        if let d = env["XDG_DATA_HOME"], d.hasPrefix("/") { return d }
        return home(env) + "/.local/share"
    }

    /// `$XDG_CONFIG_HOME` when absolute, else `~/.config`.
    static func configHome(_ env: [String: String]) -> String {
        if let d = env["XDG_CONFIG_HOME"], d.hasPrefix("/") { return d }
        return home(env) + "/.config"
    }

    /// A user directory such as `PICTURES` or `VIDEOS`: the `XDG_<NAME>_DIR`
    /// environment variable, else its line in `user-dirs.dirs` (text of that
    /// file given, or nil), else `~/<fallback>`. Values that point at the
    /// home directory itself are ignored (xdg-user-dirs uses that for "disabled").
    static func userDirectory(_ name: String, fallback: String, env: [String: String], userDirs: String?) -> String {
        let key = "XDG_\(name)_DIR"
        let home = home(env)
        func usable(_ p: String) -> String? {
            let t = p.hasSuffix("/") && p.count > 1 ? String(p.dropLast()) : p
            return t.hasPrefix("/") && t != home ? t : nil
        }
        if let v = env[key].flatMap(expand(home)).flatMap(usable) { return v }
        if let text = userDirs {
            for raw in text.split(separator: "\n") {
                let line = raw.trimmingCharacters(in: .whitespaces)
                guard line.hasPrefix(key + "=") else { continue }
                var value = String(line.dropFirst(key.count + 1))
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                if let v = expand(home)(value).flatMap(usable) { return v }
            }
        }
        return home + "/" + fallback
    }

    /// `$HOME/…` and `~/…` expanded; other relative paths rejected.
    private static func expand(_ home: String) -> (String) -> String? {
        { v in
            if v.hasPrefix("$HOME") { return home + v.dropFirst(5) }
            if v.hasPrefix("${HOME}") { return home + v.dropFirst(7) }
            if v == "~" || v.hasPrefix("~/") { return home + v.dropFirst(1) }
            return v.hasPrefix("/") ? v : nil
        }
    }

    /// The text of `$XDG_CONFIG_HOME/user-dirs.dirs`, if readable (reads a file).
    static func userDirsFile(_ env: [String: String]) -> String? {
        let url = URL(fileURLWithPath: configHome(env) + "/user-dirs.dirs")
        guard let data = try? Data(contentsOf: url), data.count < 64 * 1024 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Where screenshots go: `<pictures>/physarum` (reads user-dirs.dirs).
    static func screenshotDirectory(_ env: [String: String]) -> String {
        userDirectory("PICTURES", fallback: "Pictures", env: env, userDirs: userDirsFile(env)) + "/physarum"
    }

    /// Where recordings go: `<videos>/physarum` (reads user-dirs.dirs).
    static func recordingDirectory(_ env: [String: String]) -> String {
        userDirectory("VIDEOS", fallback: "Videos", env: env, userDirs: userDirsFile(env)) + "/physarum"
    }

    /// Creates a directory and its parents (mode 0755); throws a readable error.
    static func makeDirectory(_ path: String) throws(CaptureError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CaptureError("cannot create the folder \(path): \(reason(error))")
        }
    }

    /// The system's words for a Foundation error (the POSIX text when there is one).
    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let u = ns.userInfo[NSUnderlyingErrorKey] as? NSError, u.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(u.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        return ns.localizedDescription
    }
}

/// A capture or file failure in plain words (shown as a notice).
struct CaptureError: Error, CustomStringConvertible, Equatable {
    let description: String
    init(_ text: String) { description = text }
}
