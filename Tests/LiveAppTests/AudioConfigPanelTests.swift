import AppTestSupport
import AudioReactive
import Engine
import Foundation
import ImGuiShim
import Storage
import TestSupport
import Testing
@testable import LiveApp

/// Saved configs and capture sources through the audio panel: real files in
/// temporary folders, written and read by the real I/O worker.
@Suite(.serialized) struct AudioConfigPanelTests {
    static let height: Float = 2400

    func userFiles(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("user").path)) ?? []).sorted()
    }

    @Test func saveAsThenRestartThenApplyRestoresRoutesAndTuning() throws {
        try AudioPanelRig.run("audio-configs", height: Self.height) { ui, a, dir in
            try a.click(ui, "defaultWiring")
            try a.click(ui, "addRoute")
            let last = a.model.audio.config.routes.count - 1
            try a.typeValue(ui, into: "route:\(last):depth", "-0.75")
            try a.click(ui, "route:\(last):invert")
            try a.typeValue(ui, into: "tuning:attack", "23.5")
            try a.hover(ui, "tuning:release")
            ui.tap(ScanCode.left, a.draw)
            try a.click(ui, "route:0:mute")
            try a.type(ui, into: "configName", "My Set")
            try a.click(ui, "saveAs")
            a.settle()
            ui.frame(a.draw)
            let edited = a.model.audio.config
            #expect(edited.name == "My Set" && edited.routes.count == DefaultWiring.routes.count + 1)
            #expect(a.model.audio.file?.lastPathComponent == "my-set.json" && !a.model.audio.isEdited)
            #expect(userFiles(dir) == ["my-set.json"])

            // Restart: a fresh model and store on the same folders, starting from an empty config.
            let b = AudioPanelRig(dir: dir)
            ui.frames(2, b.draw)
            try b.click(ui, "refreshConfigs")
            b.settle()

            ui.frames(2, b.draw)
            try b.click(ui, "config:my-set.json")
            try b.click(ui, "apply")
            b.settle()
            ui.frame(b.draw)
            #expect(b.model.audio.config == edited, "routes and tuning as saved")
            #expect(b.model.audio.config.tuning.attack == 23.5 && b.model.audio.config.routes[0].muted)
            #expect(b.shell.modulator.routes == edited.routes, "the applied routes reach the modulator")
            #expect(b.model.audio.config.tuning == edited.tuning)
            #expect(b.model.audio.file == a.model.audio.file)
        }
    }

    @Test func importingEachBadFileChangesNothingAndNamesThePath() throws {
        let dir = makeTempDir("audio-import")
        defer { try? FileManager.default.removeItem(at: dir) }
        var config = AudioConfig(name: "In use")
        config.routes = DefaultWiring.routes
        config.tuning.attack = 12
        let corpus = ConfigCorpus.malformed
        #expect(corpus.count >= 30)
        try HeadlessImGui.run(height: Self.height) { ui in
            let rig = AudioPanelRig(dir: dir, config: config)
            ui.frames(2, rig.draw)
            for (i, c) in corpus.enumerated() {
                let file = dir.appendingPathComponent("bad-\(i).json")
                try Data(c.bytes).write(to: file)
                try rig.type(ui, into: "importPath", file.path)
                try rig.click(ui, "import")
                rig.settle()
                ui.frame(rig.draw)
                #expect(rig.model.audio.config == config, "\(c.label): the config in use is untouched")
                #expect(rig.shell.modulator.routes == config.routes)
                let notice = rig.model.notices.items.last?.text ?? ""
                #expect(notice.contains(file.path) && notice.hasPrefix("Import failed"), "\(c.label): \(notice)")
                #expect(try Data(contentsOf: file) == Data(c.bytes), "the bad file is left as it was")
            }
            #expect(userFiles(dir).isEmpty, "nothing was copied into the user configs")
            // A good file imports, is copied and applied.
            let good = dir.appendingPathComponent("good.json")
            try ConfigCorpus.goodText.write(to: good, atomically: true, encoding: .utf8)
            try rig.type(ui, into: "importPath", good.path)
            try rig.click(ui, "import")
            rig.settle()
            #expect(rig.model.audio.config.name == "Test" && rig.model.audio.config.routes.count == 2)
            #expect(userFiles(dir) == ["test.json"])
        }
    }

    @Test func theFileBeingEditedReloadsLiveAndABrokenSaveKeepsTheConfig() throws {
        try AudioPanelRig.run("audio-reload", height: Self.height, config: .builtInDefault) { ui, rig, dir in
            rig.dispatch(.audio(.saveAs("Live")))
            rig.settle()
            let url = try #require(rig.model.audio.file)
            // Another program (a text editor) saves a change.
            var changed = rig.model.audio.config
            changed.tuning.attack = 77
            changed.routes.removeLast()
            try SafeFile.writeAtomically(Data(changed.jsonText.utf8), to: url)
            #expect(poll(seconds: 10) {
                rig.settle()
                return rig.model.audio.config.tuning.attack == 77
            }, "the saved change is picked up")
            #expect(rig.model.audio.config == changed && rig.shell.modulator.routes == changed.routes)
            // A broken save: the config in use stays, a notice names the file.
            try SafeFile.writeAtomically(Data("{\"format\": 1, \"name\": ".utf8), to: url)
            #expect(poll(seconds: 10) {
                rig.settle()
                return rig.model.notices.items.last?.text.contains(url.path) == true
            })
            #expect(rig.model.audio.config == changed)
        }
    }

    @Test func renameExportAndDeleteWithConfirmation() throws {
        try AudioPanelRig.run("audio-files", height: Self.height, config: .builtInDefault) { ui, rig, dir in
            rig.dispatch(.audio(.saveAs("First")))
            rig.settle()
            ui.frames(2, rig.draw)
            try rig.click(ui, "config:first.json")
            try rig.type(ui, into: "configName", "Second")
            try rig.click(ui, "rename")
            rig.settle()
            ui.frames(2, rig.draw)
            #expect(userFiles(dir) == ["second.json"] && rig.model.audio.file?.lastPathComponent == "second.json")
            #expect(rig.model.audio.config.name == "Second")
            let out = dir.appendingPathComponent("exports/")
            try rig.type(ui, into: "exportPath", out.path + "/")
            try rig.click(ui, "export")
            rig.settle()
            let exported = try AudioConfig.load(contentsOf: out.appendingPathComponent("second.json")).config
            #expect(exported == rig.model.audio.config.withoutSolo)
            // Delete asks; No keeps the file, Yes deletes it.
            try rig.click(ui, "config:second.json")
            try rig.click(ui, "delete")
            ui.frames(2, rig.draw)
            try rig.click(ui, "no")
            rig.settle()
            #expect(userFiles(dir) == ["second.json"])
            try rig.click(ui, "delete")
            ui.frames(2, rig.draw)
            try rig.click(ui, "yes")
            rig.settle()
            #expect(userFiles(dir).isEmpty && rig.model.audio.file == nil)
        }
    }

    @Test func sourcePickerAndShortcutsSwitchTheCaptureSource() throws {
        let dir = makeTempDir("audio-sources")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sources = [
            PulseSourceInfo(name: "speakers.monitor", description: "Monitor of Speakers", isMonitor: true, isDefault: false, isDefaultSinkMonitor: true),
            PulseSourceInfo(name: "hdmi.monitor", description: "Monitor of HDMI", isMonitor: true),
            PulseSourceInfo(name: "usb_mic", description: "USB microphone", isMonitor: false, isDefault: true),
        ]
        try HeadlessImGui.run(height: Self.height) { ui in
            // A shortcut before any listing lists first, then switches.
            let early = AudioPanelRig(dir: dir, sources: sources)
            early.dispatch(.audio(.selectMachineOutput))
            early.settle()
            #expect(early.model.audio.source == "speakers.monitor" && early.switched == ["speakers.monitor"])

            let rig = AudioPanelRig(dir: dir, sources: sources)
            rig.dispatch(.audio(.togglePanel))  // opening the panel lists the sources
            rig.settle()
            ui.frames(2, rig.draw)
            #expect(rig.model.audio.sources == sources)
            try rig.click(ui, "microphone")
            #expect(rig.model.audio.source == "usb_mic")
            try rig.click(ui, "machine")
            #expect(rig.model.audio.source == "speakers.monitor")
            try rig.click(ui, "sourceRow:hdmi.monitor")
            #expect(rig.model.audio.source == "hdmi.monitor")
            try rig.click(ui, "sourceDefault")
            #expect(rig.model.audio.source == nil)
            #expect(rig.switched == ["usb_mic", "speakers.monitor", "hdmi.monitor", nil])
        }
    }
}
