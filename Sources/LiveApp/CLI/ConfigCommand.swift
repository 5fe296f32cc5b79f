import AudioReactive
import Engine
import Foundation
import Storage

/// `physarum config validate FILE…`, `physarum config list`, `physarum config schema`.
enum ConfigCommand: Subcommand {
    static let name = "config"
    static let summary = "validate and list audio configs"
    static let help = """
    Usage: physarum config validate FILE...
           physarum config list [--json]
           physarum config schema

    validate  Checks each audio config file strictly (syntax, types, ranges,
              sources, targets, format version, size ≤ 1 MiB, no duplicate
              keys). Prints "FILE: valid" per good file on stdout and every
              problem as FILE:LINE:COLUMN: JSON.PATH: reason on stderr
              (warnings, e.g. unknown keys, are marked "warning:" and do not
              fail). Exit 0 when every file is valid, 1 otherwise.
    list      Lists the shipped configs and your own, with the directory they
              are in and whether each loads. Your configs live in
              $XDG_CONFIG_HOME/physarum/audio (default ~/.config/physarum/audio).
              --json prints one JSON object per line.
    schema    Prints the JSON Schema of audio config files
              (the same as docs/audio-config.schema.json).
    """

    static func run(_ args: [String]) throws -> Int32 {
        guard let action = args.first else { throw UsageError("missing action: validate, list or schema") }
        var r = ArgumentReader(Array(args.dropFirst()))
        switch action {
        case "validate":
            let files = r.positionals()
            try r.finish()
            guard !files.isEmpty else { throw UsageError("validate needs at least one FILE") }
            return validate(files)
        case "list":
            let json = r.flag("--json")
            try r.finish()
            list(json: json)
            return 0
        case "schema":
            try r.finish()
            print(AudioConfigSchema.text, terminator: "")
            return 0
        default:
            throw UsageError("unknown action '\(action)' (expected validate, list or schema)")
        }
    }

    /// Validates every file; prints results; 0 when all are valid.
    static func validate(_ files: [String]) -> Int32 {
        var failed = false
        for f in files {
            do {
                let loaded = try AudioConfig.load(contentsOf: URL(fileURLWithPath: f))
                for w in loaded.warnings { printError(warningLine(w, file: f)) }
                let c = loaded.config
                print("\(f): valid ('\(c.name)', \(c.routes.count) route\(c.routes.count == 1 ? "" : "s"))")
            } catch {
                failed = true
                for e in error.errors { printError(e.inFile(f).description) }
            }
        }
        return failed ? 1 : 0
    }

    static func warningLine(_ w: JSONError, file: String) -> String {
        var e = w.inFile(file)
        e.reason = "warning: " + e.reason
        return e.description
    }

    static func list(json: Bool) {
        let store = AudioConfigStore()
        let entries = store.list()
        if json {
            for e in entries {
                var fields: [(String, JSONNode)] = [
                    ("name", .string(e.name)), ("origin", .string(e.origin.rawValue)), ("path", .string(e.url.path)),
                    ("valid", .bool(e.isValid)),
                ]
                if let p = e.problem { fields.append(("error", .string(p))) }
                print(JSONNode.object(fields).text)
            }
            return
        }
        print("shipped: \(store.shippedDirectory?.path ?? "(not found)")")
        print("user:    \(store.userDirectory.path)")
        if entries.isEmpty { print("(no configs)") }
        for e in entries {
            let status = e.isValid ? "" : "  INVALID (\(e.errorCount) error\(e.errorCount == 1 ? "" : "s")): \(e.problem ?? "")"
            print("  " + e.origin.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                  + e.name.padding(toLength: max(24, e.name.count + 1), withPad: " ", startingAt: 0)
                  + e.url.lastPathComponent + status)
        }
    }
}
