import Foundation
import LiveCore

/// `physarum remote` without HOST:PORT: looks for hosts announced on the
/// local network (`HostBrowser`), lists them and connects to the one chosen
/// on standard input; `--browse` prints them for scripts.
enum RemoteDiscovery {
    static func run(_ args: [String]) throws -> Int32 {
        var r = ArgumentReader(args)
        let browse = r.flag("--browse")
        let wait = try r.double("--wait", in: 0.1...60) ?? 3
        if browse {
            if let p = r.positionals().first { throw UsageError("unexpected argument '\(p)'") }
            try r.finish()
            let found: HostDirectory
            do {
                found = try HostBrowser.browse(seconds: wait)
            } catch {
                throw RuntimeFailure("cannot look for hosts on the local network: \(error)")
            }
            for h in found.sorted { print(h.browseLine) }
            return 0
        }
        let found: HostDirectory
        do {
            found = try HostBrowser.browse(seconds: wait)
        } catch {
            throw RuntimeFailure("cannot look for hosts on the local network: \(error); give the host's address: physarum remote HOST:PORT")
        }
        let hosts = found.sorted
        guard !hosts.isEmpty else {
            throw RuntimeFailure("no host found on the local network in \(wait) s (a host announces itself when it listens "
                                 + "beyond this machine, e.g. --listen 0.0.0.0:7777); give its address: physarum remote HOST:PORT")
        }
        printError("Hosts on the local network:")
        for (i, h) in hosts.enumerated() {
            printError("  \(i + 1)) \(h.name) at \(h.target) (\(h.hostName))\(h.tokenRequired ? ", token needed" : "")")
        }
        printError("Connect to which? [1-\(hosts.count)] ", newline: false)
        guard let answer = readLine(strippingNewline: true) else { throw UsageError("no host chosen (standard input ended)") }
        guard let chosen = found.choose(answer) else { throw UsageError("'\(answer)' is not one of the hosts listed (1-\(hosts.count))") }
        var rest = r.remaining
        if chosen.tokenRequired && !rest.contains(where: { $0 == "--token" || $0.hasPrefix("--token=") }) {
            printError("Token for \(chosen.name) (shown in its window with K): ", newline: false)
            guard let t = readLine(strippingNewline: true) else { throw UsageError("no token given (standard input ended)") }
            rest += ["--token", t.trimmingCharacters(in: .whitespaces)]
        }
        printError("physarum remote: connecting to \(chosen.name) at \(chosen.target)")
        return try RemoteCommand.run([chosen.target] + rest)
    }
}
