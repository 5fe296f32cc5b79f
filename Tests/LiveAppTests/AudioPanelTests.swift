import AppTestSupport
import AudioReactive
import Engine
import Foundation
import ImGuiShim
import Testing
import TestSupport
@testable import LiveCore
@testable import LiveApp

/// The route editor and controls of the audio panel, driven with injected
/// mouse and keys in real (headless) ImGui frames; the modulator is the one
/// the live loop uses, fed with synthetic band signals.
@Suite(.serialized) struct AudioPanelTests {
    static let height: Float = 2400

    /// The value a single route on `key` must produce: from01(to01(base) + depth × signal).
    static func expected(_ key: ParamKey, base: Double, depth: Double, signal: Double) -> Double {
        let spec = key.spec
        return spec.from01(min(max(spec.to01(base) + depth * signal, 0), 1))
    }

    @Test func addRoutePickSourceModeTargetSetDepthAndItModulatesThenRemoveReturnsToBase() throws {
        try AudioPanelRig.run("audio-panel", height: Self.height) { ui, rig, dir in
            try rig.click(ui, "addRoute")
            #expect(rig.model.audio.config.routes.count == 1)
            // Source: mid.
            try rig.click(ui, "route:0:source")
            try rig.click(ui, "sourceItem:mid")
            #expect(rig.model.audio.config.routes[0].source == .mid)
            // Mode: transient.
            try rig.click(ui, "route:0:mode")
            try rig.click(ui, "modeItem:transient")
            #expect(rig.model.audio.config.routes[0].mode == .transient)
            // Target: search "bloom" in the picker and pick it.
            try rig.click(ui, "route:0:target")
            ui.type("bloom")
            ui.frames(2, rig.draw)
            let offered = rig.shell.panel.rects.keys.filter { $0.hasPrefix("targetItem:") }
            #expect(offered.contains("targetItem:effects.bloom") && offered.count < 5, "search narrows the list: \(offered)")
            try rig.click(ui, "targetItem:effects.bloom")
            #expect(rig.model.audio.config.routes[0].target == .parameter(.bloom))
            // Depth by typing.
            try rig.typeValue(ui, into: "route:0:depth", "0.25")
            #expect(rig.model.audio.config.routes[0].depth == 0.25)
            // Depth by nudging: arrows step 4/100 (range −2…2), Shift ×0.1, Alt ×10; the wheel too.
            try rig.hover(ui, "route:0:depth")
            ui.tap(ScanCode.right, rig.draw)
            #expect(abs(rig.model.audio.config.routes[0].depth - 0.29) < 1e-12)
            ui.mods(shift: true)
            ui.tap(ScanCode.left, rig.draw)
            ui.mods()
            #expect(abs(rig.model.audio.config.routes[0].depth - 0.286) < 1e-12)
            ui.frames(20, rig.draw)  // the pointer rests on it: the wheel is the slider's
            ui.mods(alt: true)
            ui.wheel(1)
            ui.frame(rig.draw)
            ui.mods()
            #expect(abs(rig.model.audio.config.routes[0].depth - 0.686) < 1e-12)
            ui.tap(ScanCode.home, rig.draw)
            #expect(rig.model.audio.config.routes[0].depth == -2)
            try rig.typeValue(ui, into: "route:0:depth", "0.4")
            let depth = rig.model.audio.config.routes[0].depth
            #expect(depth == 0.4)
            #expect(rig.shell.modulator.routes == rig.model.audio.config.routes, "every edit reaches the modulator")

            // The effective bloom follows the mid band's transient signal; its level does nothing.
            let base = rig.model.base
            var t = 0.0
            for s: Float in [0, 0.3, 1, 0.55, 0.1, 0] {
                t += 1.0 / 60
                let out = rig.effective(AudioPanelRig.features(.mid, level: 0.9, transient: s, time: t))
                let want = s == 0 ? base[.bloom] : Self.expected(.bloom, base: base[.bloom], depth: depth, signal: Double(s))
                #expect(abs(out[.bloom] - want) < 1e-12, "signal \(s): \(out[.bloom]) vs \(want)")
                var others = out
                others[.bloom] = base[.bloom]
                #expect(others == base, "only the target moves")
            }
            let moved = rig.effective(AudioPanelRig.features(.mid, transient: 1, time: t + 0.02))
            #expect(moved[.bloom] != base[.bloom])
            // The activity meter shows the route's contribution.
            #expect(abs(rig.shell.modulator.activity[0] - depth) < 1e-12)

            // Removing the route returns the target to its base exactly, signal or not.
            try rig.click(ui, "route:0:remove")
            #expect(rig.model.audio.config.routes.isEmpty)
            let after = rig.effective(AudioPanelRig.features(.mid, level: 1, transient: 1, time: t + 0.04))
            #expect(after == base)
            #expect(after[.bloom].bitPattern == base[.bloom].bitPattern)
            // Undo brings the route back (route edits are undoable).
            try rig.click(ui, "routesUndo")
            #expect(rig.model.audio.config.routes.count == 1 && rig.model.audio.config.routes[0].depth == 0.4)
        }
    }

    @Test func muteAndSoloDecideWhichRoutesPlay() throws {
        let dir = makeTempDir("audio-panel")
        defer { try? FileManager.default.removeItem(at: dir) }
        var config = AudioConfig(name: "Two")
        config.routes = [Route(source: .mid, target: .parameter(.bloom), depth: 0.5),
                         Route(source: .bass, target: .parameter(.exposure), depth: 0.5)]
        try HeadlessImGui.run(height: Self.height) { ui in
            let rig = AudioPanelRig(dir: dir, config: config)
            ui.frames(2, rig.draw)
            let base = rig.model.base
            var t = 0.0
            func frame() -> PresetParams {
                t += 1.0 / 60
                var f = AudioPanelRig.features(.mid, level: 0.6, time: t)
                f[.bass] = SourceFeatures(level: 0.6, transient: 0, gate: 1)
                return rig.effective(f)
            }
            let both = frame()
            #expect(both[.bloom] != base[.bloom] && both[.exposure] != base[.exposure])
            try rig.click(ui, "route:0:mute")
            #expect(rig.model.audio.config.routes[0].muted)
            var out = frame()
            #expect(out[.bloom] == base[.bloom] && out[.exposure] == both[.exposure])
            try rig.click(ui, "route:0:mute")
            out = frame()
            #expect(out[.bloom] == both[.bloom] && out[.exposure] == both[.exposure])
            try rig.click(ui, "route:1:solo")
            out = frame()
            #expect(out[.bloom] == base[.bloom] && out[.exposure] == both[.exposure], "only the solo route plays")
            try rig.click(ui, "route:0:solo")
            out = frame()
            #expect(out[.bloom] == both[.bloom] && out[.exposure] == both[.exposure], "two solo routes both play")
            // Solo is an audition aid: never saved.
            #expect(rig.model.audio.config.withoutSolo.routes.allSatisfy { !$0.solo })
            #expect(!rig.model.audio.config.jsonText.contains("solo"))
            // Master off: the base exactly.
            try rig.click(ui, "enabled")
            #expect(frame() == base)
        }
    }

    @Test func anInvalidTargetCannotBeChosen() throws {
        let dir = makeTempDir("audio-panel")
        defer { try? FileManager.default.removeItem(at: dir) }
        var config = AudioConfig(name: "One")
        config.routes = [Route(source: .bass, target: .parameter(.bloom), depth: 0.5)]
        try HeadlessImGui.run(height: Self.height) { ui in
            let rig = AudioPanelRig(dir: dir, config: config)
            ui.frames(2, rig.draw)
            try rig.click(ui, "route:0:target")
            let all = Set(rig.shell.panel.rects.keys.filter { $0.hasPrefix("targetItem:") }.map { String($0.dropFirst(11)) })
            #expect(all == Set(RouteTarget.allIDs), "the picker offers exactly the valid targets")
            let invalid = ParamRegistry.scalars.filter { !$0.isModulatable }.map(\.id) + ["species.*.population", "species.0.color"]
            #expect(!invalid.isEmpty)
            for id in invalid { #expect(!all.contains(id), "\(id) must not be offered") }
            // Searching for them finds nothing to click.
            for q in ["agents", "population", "sim speed"] {
                try rig.type(ui, into: "targetSearch", q)
                let found = rig.shell.panel.rects.keys.filter { $0.hasPrefix("targetItem:") }
                #expect(found.isEmpty, "\(q): \(found)")
            }
            // Sections group the list.
            let groups = RouteTargetCatalog.search("").map(\.group)
            #expect(groups.first == RouteTargetCatalog.allSpeciesGroup && groups.contains("Effects") && Set(groups).count == groups.count)
            // An invalid id sent as an action changes nothing and says why.
            rig.dispatch(.audio(.setTarget(0, "global.agents")))
            #expect(rig.model.audio.config.routes[0].target == .parameter(.bloom))
            #expect(rig.model.notices.items.last?.text.contains("respawns agents") == true)
        }
    }

    @Test func tuningAndControlsReachTheAudioTuning() throws {
        try AudioPanelRig.run("audio-panel", height: Self.height) { ui, rig, dir in
            try rig.typeValue(ui, into: "tuning:attack", "23.5")
            try rig.typeValue(ui, into: "gain", "-6")
            try rig.hover(ui, "tuning:gateHigh")
            ui.tap(ScanCode.right, rig.draw)  // 40/100 dB
            try rig.click(ui, "autoGain")
            try rig.typeValue(ui, into: "reactivity", "1.5")
            let c = rig.model.audio.config

            #expect(c.tuning.attack == 23.5 && c.tuning.gain == -6 && !c.tuning.autoGain && c.reactivity == 1.5)
            #expect(abs(c.tuning.gateHigh - 9.4) < 1e-9)
            let s = c.tuning
            #expect(s.attack == 23.5 && s.gain == -6 && !s.autoGain && abs(s.gateHigh - 9.4) < 1e-9)
            #expect(rig.shell.modulator.reactivity == 1.5)
            // Gate low pushed above gate high takes gate high along (the loader's rule holds).
            try rig.typeValue(ui, into: "tuning:gateLow", "20")
            #expect(rig.model.audio.config.tuning.gateLow == 20 && rig.model.audio.config.tuning.gateHigh == 20)
            // Every control has a help marker.
            for key in ["enabled", "autoGain", "reactivity"] + AudioTuning.fields.map(AudioPanel.rectKey) {
                #expect(rig.shell.panel.rects["help:" + key] != nil, "help marker for \(key)")
            }
        }
    }
}
