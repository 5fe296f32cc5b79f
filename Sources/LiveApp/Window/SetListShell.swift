import Foundation
import LiveCore
import Storage

/// The set list in the live window: reads `setlist.json` at start (a broken
/// file is reported with its line and reason, and the model then refuses to
/// write over it), saves edits atomically on the file worker, and plays the
/// list as a session source (`SetListSource`, after the live controls: it
/// reads the tick's tempo). Main thread only.
final class SetListShell: ActionSource {
    let url: URL
    let source = SetListSource()
    private let files: FileWorker<AppAction>

    init(files: FileWorker<AppAction>, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.files = files
        url = SetListFile.defaultURL(environment: environment)
    }

    /// The file as read at start (an action for the model).
    func start() -> [AppAction] {
        let loaded = SetListFile.load(from: url)
        return [.setList(.loaded(loaded.list, problem: loaded.problem))]
    }

    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) { source.drain(&inputs, into: inbox) }

    /// A `.setList` effect: the file write, off the frame path.
    func perform(_ effect: SetListEffect) -> [AppAction] {
        switch effect {
        case .save(let list):
            let url = url
            let ok = files.submit(key: "setlist") {
                do {
                    try SetListFile.save(list, to: url)
                    return []
                } catch {
                    return [.notice("Set list not saved: \(url.path): \(error)", .error)]
                }
            }
            return ok ? [] : [.notice("Set list not saved: file work is falling behind", .error)]
        }
    }

    /// The `setList` object of the state file: the list's name and file, the
    /// transport, the current and next cue, bars and seconds left.
    func stateNode(model: AppModel) -> JSONNode {
        let s = model.setList, st = source.status
        func cue(_ i: Int?) -> JSONNode {
            guard let i, s.list.cues.indices.contains(i) else { return .null }
            let c = s.list.cues[i]
            return .object([("index", .int(i + 1)), ("preset", .string(c.preset)), ("length", .string(c.length.label)),
                            ("transition", .string(c.transition.label))])
        }
        return .object([
            ("name", .string(s.list.name)), ("file", .string(url.path)), ("problem", s.fileProblem.map(JSONNode.string) ?? .null),
            ("cues", .int(s.list.cues.count)), ("transport", .string(s.transport.rawValue)),
            ("current", cue(s.current)), ("next", cue(s.transport == .stopped ? nil : s.next)),
            ("barsLeft", st.barsLeft.map { JSONNode.rounded($0, 3) } ?? .null),
            ("secondsLeft", st.secondsLeft.map { JSONNode.rounded($0, 3) } ?? .null),
            ("panelVisible", .bool(s.panelVisible)),
        ])
    }
}
