import AudioReactive
import Engine
import Foundation
import LiveCore
import Storage

/// The `--state-file` document of the live window: the shareable state, the
/// remote side, audio, notices, the panels' rectangles and focus, speech and
/// the live controls (scripts and integration tests read it).
extension WindowReport {
    /// The audio side for `--state-file`: source, config, and the audio
    /// panel's item rectangles in window pixels (scripts and integration
    /// tests aim xdotool clicks with them).
    private func audioState() -> JSONNode {
        let rects = Self.rectMembers(audio.panel.rects)
        return .object([
            ("source", model.audio.source.map(JSONNode.string) ?? .null),
            ("status", .string(audio.link?.status.label ?? "audio off")),
            ("config", .string(model.audio.config.name)),
            ("file", model.audio.file.map { .string($0.path) } ?? .null),
            ("routes", .int(model.audio.config.routes.count)),
            ("panelVisible", .bool(model.audio.panelVisible)),
            ("panel", .object(model.audio.panelVisible && model.uiVisible ? rects : [])),
        ])
    }

    /// Notices for `--state-file`: the session's history (level and text),
    /// the ids on screen, whether the window is open, and the strip's and
    /// window's item rectangles.
    private func noticesState() -> JSONNode {
        let board = model.notices
        return .object([
            ("history", .array(board.history.map { .object([("id", .int($0.id)), ("level", .string($0.level.rawValue)), ("text", .string($0.text))]) })),
            ("shown", .array(board.visible.map { .int($0.id) })),
            ("hidden", .int(board.hiddenCount)),
            ("windowOpen", .bool(board.windowOpen)),
            ("rects", .object(model.uiVisible ? Self.rectMembers(panels.frame.notices.rects) : [])),
        ])
    }

    /// The parameter editor's controls shown whole (inside its panel), the
    /// menu bar and the window's size in UI pixels, for layout tests at
    /// every UI scale.
    private func controlsState() -> JSONNode {
        let e = panels.frame.editor.rects
        guard model.uiVisible, let win = e["window"] else { return .object([]) }
        let whole = e.filter { $0.key == "window" || ($0.value.x0 >= win.x0 && $0.value.x1 <= win.x1 && $0.value.y0 >= win.y0 && $0.value.y1 <= win.y1) }
        let size = editorWindow.window.size
        return .object([
            ("uiScale", .double(model.uiScale)),
            ("display", .array([.int(size.width), .int(size.height)])),
            ("menuBar", panels.frame.menuBar.map { b in .array([.double(Double(b.x0)), .double(Double(b.y0)), .double(Double(b.x1)), .double(Double(b.y1))]) } ?? .null),
            ("editor", .object(Self.rectMembers(whole))),
            ("openHelp", panels.frame.editor.openHelp.map(JSONNode.string) ?? .null),
            ("keyHelp", .object(model.live.keyHelpVisible ? Self.rectMembers(liveSet.panels.keyHelp.rects) : [])),
            ("library", .object(model.live.libraryPanelVisible ? Self.rectMembers(liveSet.panels.library.rects) : [])),
            ("editorControls", .array(e.keys.filter { $0 != "window" && !$0.hasPrefix("label:") }.sorted().map(JSONNode.string))),
            ("focus", .object([("frame", .int(pipeline.frameCount)), ("keys", .int(SDLEvents.keyDowns)),
                               ("control", panels.frame.focus.map(JSONNode.string) ?? .null), ("panel", .string(panels.frame.focusPanel)),
                               ("shown", .bool(panels.frame.focusShown)), ("typing", .bool(panels.frame.typing)),
                               ("rect", panels.frame.focusRect.map { f in .array([f.x0, f.y0, f.x1, f.y1].map { .double(Double($0)) }) } ?? .null)])),
        ])
    }

    /// The whole screen's layout for `--state-file` (`LayoutReport`): every
    /// window with its rectangle, and every item drawn in them with its
    /// rectangle, its text's measured extent, the box that text must stay
    /// in and what of its window shows.
    private func layoutState() -> JSONNode {
        let r = JSONNode.rounded
        func box(_ b: UI.Rect) -> JSONNode { .array([r(Double(b.x0), 1), r(Double(b.y0), 1), r(Double(b.x1), 1), r(Double(b.y1), 1)]) }
        let windows = LayoutReport.windows().map { JSONNode.object([("name", .string($0.name)), ("rect", box($0.rect))]) }
        let items = LayoutReport.items().map { i in
            JSONNode.object([("window", .string(i.window)), ("kind", .string(i.kind)), ("text", .string(i.text)), ("rect", box(i.rect)),
                             ("textRect", box(i.textRect)), ("box", box(i.box)), ("clip", box(i.clip)), ("visible", .bool(i.visible))])
        }
        return .object([("uiScale", .double(model.uiScale)), ("theme", .string(model.ui.theme.rawValue)),
                         ("windows", .array(windows)), ("items", .array(items))])
    }

    /// Item rectangles as `name: [x0, y0, x1, y1]` in window pixels, sorted by name.
    static func rectMembers(_ rects: [String: UI.Rect]) -> [(String, JSONNode)] {
        let r = JSONNode.rounded
        return rects.sorted { $0.key < $1.key }.map { k, b in
            (k, .array([r(Double(b.x0), 1), r(Double(b.y0), 1), r(Double(b.x1), 1), r(Double(b.y1), 1)]))
        }
    }

    /// Rewrites the `--state-file` off the frame path (`sync`: waits, for the last one at quit).
    func writeState(_ path: String, sync: Bool = false) {
        var extra: [(String, JSONNode)] = []
        if let h = remote.link {
            extra = [("revision", .int(Int(h.revision))),
                     ("remote", .object([("connected", .bool(h.remoteConnected)), ("connects", .int(h.connects))])),
                     ("listen", .string(remote.host?.address.description ?? ""))]
            if let s = remote.hostStatus {
                extra.append(("host", RemoteHostSetup.stateJSON(s, tokenShown: model.live.hostTokenShown,
                                                                label: panels.frame.remoteLabel)))
            }
        }
        let state = remote.editor?.state(model) ?? HostLink.snapshot(model)
        if let r = remote.editor { extra = [("revision", .int(Int(state.revision))), ("connected", .bool(r.synced))] }
        extra.append(("audio", audioState()))
        extra.append(("notices", noticesState()))
        extra.append(("controls", controlsState()))
        if model.uiVisible { extra.append(("layout", layoutState())) }
        extra.append(("speech", speech.state(focus: panels.focus)))
        extra.append(("liveControl", control.stateNode(model: model, tempo: control.tempo)))
        if let setList { extra.append(("setList", setList.stateNode(model: model))) }
        StateDumpWriter.shared.write(StateDump.text(state, extra: extra), to: path, sync: sync)
    }
}
