import Foundation

/// Where the app keeps the user's files: the XDG base directories (config,
/// state, data, cache) and user directories (pictures, videos), each with the
/// app's own `physarum` folder, as a desktop user expects them. The one
/// lookup every command uses (the README lists the variables).
/// Pure functions of their inputs, plus `userDirsFile` which reads one small
/// file: call it off the frame path.
public enum UserFolders {
    /// The app's folder name inside each base directory.
    public static let appFolder = "physarum"

    /// An XDG base directory.
    public enum Base: String, Sendable, CaseIterable {
        /// `$XDG_CONFIG_HOME` (`~/.config`): audio configs, bindings.
        case config = "XDG_CONFIG_HOME"
        /// `$XDG_STATE_HOME` (`~/.local/state`): the autosaved session.
        case state = "XDG_STATE_HOME"
        /// `$XDG_DATA_HOME` (`~/.local/share`): the preset library.
        case data = "XDG_DATA_HOME"
        /// `$XDG_CACHE_HOME` (`~/.cache`).
        case cache = "XDG_CACHE_HOME"

        /// The fallback below `$HOME` when the variable is unset or relative.
        var fallback: String {
            switch self {
            case .config: ".config"
            case .state: ".local/state"
            case .data: ".local/share"
            case .cache: ".cache"
            }
        }
    }

    /// `$HOME`, else the password database's home.
    public static func home(_ env: [String: String]) -> String {
        if let h = env["HOME"], h.hasPrefix("/") { return h }
        return NSHomeDirectory()
    }

    /// The base directory: its variable when absolute (the spec ignores
    /// relative values), else `$HOME/<fallback>`.
    public static func base(_ base: Base, _ env: [String: String]) -> String {
        if let d = env[base.rawValue], d.hasPrefix("/") { return d }
        return home(env) + "/" + base.fallback
    }

    /// The app's folder in a base directory, e.g. `~/.local/state/physarum`.
    public static func app(_ base: Base, _ env: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        URL(fileURLWithPath: Self.base(base, env) + "/" + appFolder, isDirectory: true)
    }

    /// A user directory such as `PICTURES` or `VIDEOS`: the `XDG_<NAME>_DIR`
    /// environment variable, else its line in `user-dirs.dirs` (text of that
    /// file given, or nil), else `~/<fallback>`. Values that point at the
    /// home directory itself are ignored (xdg-user-dirs uses that for "disabled").
    public static func userDirectory(_ name: String, fallback: String, env: [String: String], userDirs: String?) -> String {
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
    public static func userDirsFile(_ env: [String: String]) -> String? {
        let url = URL(fileURLWithPath: base(.config, env) + "/user-dirs.dirs")
        guard let data = try? SafeFile.read(url, limit: 64 * 1024) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Where screenshots go: `<pictures>/physarum` (reads user-dirs.dirs).
    public static func screenshotDirectory(_ env: [String: String]) -> String {
        userDirectory("PICTURES", fallback: "Pictures", env: env, userDirs: userDirsFile(env)) + "/" + appFolder
    }

    /// Where recordings go: `<videos>/physarum` (reads user-dirs.dirs).
    public static func recordingDirectory(_ env: [String: String]) -> String {
        userDirectory("VIDEOS", fallback: "Videos", env: env, userDirs: userDirsFile(env)) + "/" + appFolder
    }
}
