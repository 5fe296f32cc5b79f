import AppTestSupport
import Engine
import Foundation
import Testing
@testable import LiveCore
@testable import LiveApp

/// The wheel scrolls lists and panels; it steps a slider only once the
/// pointer has rested on it (or it has the keyboard focus). Real headless
/// ImGui frames, 1/60 s apart, the wheel given as a user turns it.
@Suite(.serialized) struct WheelScrollTests {
    /// The wheel turned by `notches` in one frame.
    static func turn(_ ui: HeadlessImGui, _ notches: Float, _ draw: () -> Void) {
        ui.wheel(notches)
        ui.frame(draw)
    }

    @Test func theWheelOverTheLibraryListScrollsItAndChangesNothing() throws {
        try LivePanelRig.run { ui, rig, _ in
            let row = try rig.rect("row:slot:2")
            let before = (rig.model.live.cycle.dwell, rig.model.currentPreset?.id, rig.model.base, rig.model.playlistOn)
            ui.moveMouse(to: row.center)
            ui.frames(2, rig.draw)
            for _ in 0..<12 { Self.turn(ui, -1, rig.draw) }
            ui.frames(2, rig.draw)
            #expect(rig.panels.library.listScrollY > 0, "the list scrolled")
            let after = (rig.model.live.cycle.dwell, rig.model.currentPreset?.id, rig.model.base, rig.model.playlistOn)
            #expect(after.0 == before.0 && after.1 == before.1 && after.2 == before.2 && after.3 == before.3, "nothing changed")
        }
    }

    @Test func aSliderThePointerJustReachedIsNotSteppedARestedOneIs() throws {
        try LivePanelRig.run { ui, rig, _ in
            let dwell = try rig.rect("dwell")
            let start = rig.model.live.cycle.dwell
            // The pointer arrives and the wheel turns at once (a scroll passing over it): the dwell stays.
            ui.moveMouse(to: dwell.center)
            ui.frame(rig.draw)
            for _ in 0..<6 { Self.turn(ui, -1, rig.draw) }
            #expect(rig.model.live.cycle.dwell == start, "scrolling over the dwell slider left it at \(start) s")
            // Still turning a little later: still scrolling, not stepping.
            ui.frames(8, rig.draw)
            Self.turn(ui, -1, rig.draw)
            #expect(rig.model.live.cycle.dwell == start)
            // Rested 0.33 s: one notch steps it by 1/100 of its range.
            ui.frames(20, rig.draw)
            Self.turn(ui, -1, rig.draw)
            let r = CycleSettings.dwellRange
            let step = PreciseSlider.step(span: r.upperBound - r.lowerBound, integer: false, shift: false, alt: false)
            #expect(abs(rig.model.live.cycle.dwell - (start - step)) < 1e-9, "\(start) → \(rig.model.live.cycle.dwell)")
        }
    }

    @Test func scrollingTheEditorPastItsSlidersChangesNoParameter() throws {
        try HeadlessImGui.run(height: 500) { ui in
            let rig = EditorRig()
            ui.frames(2, rig.draw)
            // The pointer on the sliders' column, the wheel turning a notch every other frame.
            let slider = try rig.rect("slider:global.exposure")
            ui.moveMouse(to: slider.center)
            let before = rig.model.base
            for i in 0..<60 { if i % 2 == 0 { Self.turn(ui, -1, rig.draw) } else { ui.frame(rig.draw) } }
            #expect(rig.editor.scrollY > 0, "the panel scrolled")
            #expect(rig.model.base == before, "no slider passing under the pointer changed")
        }
    }
}
