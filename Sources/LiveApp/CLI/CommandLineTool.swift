import Foundation
import LiveCore

/// A `physarum` subcommand: parses its own arguments and runs.
/// Exit codes: 0 success, 1 runtime failure, 2 usage error.
protocol Subcommand: Sendable {
    /// The word after `physarum` (e.g. "bench").
    static var name: String { get }
    /// One line for the top-level help.
    static var summary: String { get }
    /// Full help text for `physarum NAME --help`.
    static var help: String { get }
    /// Runs with the arguments after the subcommand name.
    static func run(_ args: [String]) throws -> Int32
}

/// A user error in the command line: printed as one line, exit 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// Top-level dispatch of `physarum [SUBCOMMAND] ...`.
enum CommandLineTool {
    /// Every subcommand, in the order the help lists them.
    static let subcommands: [any Subcommand.Type] = [
        ParamsCommand.self,
        SourcesCommand.self,
        AnalyzeCommand.self,
        BenchCommand.self,
        RenderCommand.self,
        PresetsCommand.self,
        ConfigCommand.self,
        HostCommand.self,
        RemoteCommand.self,
    ]

    static var help: String {
        var s = LiveOptions.help + "\n\nSubcommands:\n"

        for c in subcommands {
            s += "  " + c.name.padding(toLength: 10, withPad: " ", startingAt: 0) + c.summary + "\n"
        }
        s += "\nRun `physarum SUBCOMMAND --help` for the options of each."
        return s
    }

    static func run(_ args: [String]) -> Int32 {
        // A write to a closed pipe (the terminal or the reader of our output
        // gone) is an error to ignore, never a signal that ends the app.
        signal(SIGPIPE, SIG_IGN)
        if args.contains("--help") || args.contains("-h") || args.first == "help", args.first?.hasPrefix("-") != false || args.first == "help" {
            print(help)
            return 0
        }
        guard let first = args.first, !first.hasPrefix("-") else {
            // No subcommand: the live window.
            do {
                let options = try LiveOptions.parse(args)
                return LiveRunner(options: options).run()
            } catch {
                printError("physarum: \(error)")
                return 2
            }
        }
        guard let command = subcommands.first(where: { $0.name == first }) else {
            printError("physarum: unknown subcommand '\(first)' (see `physarum --help`)")
            return 2
        }
        let rest = Array(args.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(command.help)
            return 0
        }
        do {
            return try command.run(rest)
        } catch let e as UsageError {
            printError("physarum \(command.name): \(e.description)")
            return 2
        } catch let e as RuntimeFailure {
            printError("physarum \(command.name): \(e.description)")
            return 1
        } catch {
            printError("physarum \(command.name): \(error)")
            return 1
        }
    }
}

/// Writes one line to standard error (`newline: false`: a prompt).
func printError(_ line: String, newline: Bool = true) {
    writeQuietly(line + (newline ? "\n" : ""), to: STDERR_FILENO)
}

/// Writes `text` to a file descriptor and ignores a failure: a closed
/// terminal or a reader that went away (EPIPE: `physarum 2>&1 | head -1`, a
/// launcher that stopped reading) must not stop a running set.
/// (`FileHandle.write(_: Data)` traps on such an error: the window crashed on
/// its next notice.)
func writeQuietly(_ text: String, to fd: Int32) {
    Array(text.utf8).withUnsafeBytes { writeQuietly($0, to: fd) }
}

/// Writes all of `bytes` (as far as the descriptor takes them; see above).
func writeQuietly(_ bytes: UnsafeRawBufferPointer, to fd: Int32) {
    var done = 0
    while done < bytes.count {
        let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
        if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
    }
}
