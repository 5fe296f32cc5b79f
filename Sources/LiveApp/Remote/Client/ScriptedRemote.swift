import AudioReactive
import Engine
import Foundation
import LiveCore

/// `physarum remote --headless`: the editor's model without a window, driven
/// by a script (or idle, mirroring the host), with its own state file for
/// comparison with the host's. Main thread only.
final class ScriptedRemote {
    private let target: RemoteTarget
    private let script: ScriptSource?
    private let stateFile: String?
    private let exitWhenDone: Bool
    private let quitAfter: Double?
    private var model: AppModel

    init(target: RemoteTarget, script: ScriptSource?, stateFile: String?, exitWhenDone: Bool, quitAfter: Double?, preset: String?) {
        self.target = target
        self.script = script
        self.stateFile = stateFile
        self.exitWhenDone = exitWhenDone
        self.quitAfter = quitAfter
        let catalog = PresetCatalog.factory()
        model = AppModel(presets: catalog.presets, start: preset.flatMap { catalog.preset(named: $0) })
    }

    /// Runs until the script quits (with `--exit-when-done`), `--quit-after`,
    /// SIGTERM/SIGINT, or the host stops us for good (exit 1).
    func run() throws -> Int32 {
        let signals = QuitSignals()
        let link = try RemoteEditorLink.connect(to: target, model: model)
        let client = link.client
        defer { client.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        var resumeAt = 0.0
        var waitingForSync = false
        var scriptDone = script == nil
        var lastStateSecond = -1
        var exitCode: Int32 = 0

        while !signals.received {
            let now = (clock.now - start).seconds
            if let q = quitAfter, now >= q { break }
            let (adopt, messages) = link.update(model: model)
            if let adopt { _ = model.handle(adopt) }  // no simulation here: the reseed has nothing to do
            for m in messages { printError("physarum remote: \(m)") }
            if case .stopped = link.status {
                exitCode = 1
                break
            }
            // The script runs while the host's state is here, a batch of
            // lines per turn (signals, the network's news and the state file
            // are seen between batches, however long the script), and no
            // further ahead of the host's acknowledgements than `maxUnacked`.
            var taken = 0
            while !scriptDone, link.synced, now >= resumeAt, taken < Self.linesPerTurn, link.unackedCount < Self.maxUnacked {
                if waitingForSync {
                    guard link.settled else { break }
                    waitingForSync = false
                }
                guard let script else { break }
                taken += 1
                switch script.next() {
                case .pending:
                    resumeAt = now + 0.005
                case .end:
                    scriptDone = true
                case .failed(let why):
                    throw UsageError(why)
                case .line(let text):
                    lineNumber += 1
                    guard let step = try ScriptStep.parse(text, number: lineNumber, file: script.name) else { continue }
                    switch step {
                    case .intent(let i): link.send(i)
                    case .params(let values):
                        let before = model.base
                        _ = model.handle(.beginEdit)
                        for v in values { _ = model.handle(v.action) }
                        _ = model.handle(.endEdit)
                        link.mirror(from: before, to: model.base)
                    case .wait(let s): resumeAt = now + s
                    case .sync: waitingForSync = true
                    case .quit: scriptDone = true
                    }
                }
                if resumeAt > now { break }
            }
            let second = Int(now)
            let finished = scriptDone && exitWhenDone && link.settled
            if let path = stateFile, second != lastStateSecond || finished {
                lastStateSecond = second
                writeState(path, link: link, sync: finished)
            }
            if finished { break }
            // A light loop: the network thread does the waiting on sockets.
            Thread.sleep(forTimeInterval: 0.002)
        }
        if let path = stateFile { writeState(path, link: link, sync: true) }
        // A refusal was printed once, as the status line it arrived with.
        return exitCode
    }

    private var lineNumber = 0
    /// Script lines taken between two looks at signals and the network.
    static let linesPerTurn = 256
    /// Param changes sent and not yet acknowledged, at most, before the script waits.
    static let maxUnacked = 512

    private func writeState(_ path: String, link: RemoteEditorLink, sync: Bool) {
        let s = link.state(model)
        let text = StateDump.text(s, extra: [
            ("revision", .int(Int(s.revision))), ("ack", .int(Int(s.ack))), ("seq", .int(Int(link.seq))),
            ("connected", .bool(link.synced)), ("settled", .bool(link.settled)),
        ])
        StateDumpWriter.shared.write(text, to: path, sync: sync)
    }
}
