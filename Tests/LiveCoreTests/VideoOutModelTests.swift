import Testing
@testable import LiveCore

/// The video outputs' switches in the model: off by default, the shell told
/// to start and stop each, a row without its destination refused with a
/// notice, and an output the shell lost switched off.
@Suite struct VideoOutModelTests {
    @Test func outputsAreOffByDefaultAndTheShellStartsAndStopsThem() {
        var m = AppModel(presets: [])
        #expect(m.videoOut.on.isEmpty)
        #expect(m.handle(.videoOut(.toggle(.pipewire))) == [.videoOut(.pipewire, true)])
        #expect(m.videoOut.on == [.pipewire])
        #expect(m.handle(.videoOut(.set(.pipewire, true))) == [], "already on: nothing to do")
        #expect(m.handle(.videoOut(.toggle(.pipewire))) == [.videoOut(.pipewire, false)])
        #expect(m.videoOut.on.isEmpty)
    }

    @Test func aStreamOrDeviceWithoutItsDestinationIsRefusedWithANotice() {
        var m = AppModel(presets: [])
        let effects = m.handle(.videoOut(.set(.stream, true)))
        #expect(m.videoOut.on.isEmpty)
        #expect(effects.count == 1 && m.notices.items.last?.text.contains("--stream URL") == true)
        _ = m.handle(.videoOut(.set(.v4l2, true)))
        #expect(m.notices.items.last?.text.contains("--v4l2 /dev/videoN") == true)
        m.videoOut.streamURL = "udp://127.0.0.1:1234"
        #expect(m.handle(.videoOut(.set(.stream, true))) == [.videoOut(.stream, true)])
        #expect(m.videoOut.on == [.stream])
    }

    @Test func anOutputTheShellLostIsOffWithoutAnotherStop() {
        var m = AppModel(presets: [])
        m.videoOut.v4l2Device = "/dev/video9"
        _ = m.handle(.videoOut(.set(.v4l2, true)))
        #expect(m.handle(.videoOut(.stopped(.v4l2))) == [])
        #expect(m.videoOut.on.isEmpty)
        #expect(m.handle(.videoOut(.toggle(.v4l2))) == [.videoOut(.v4l2, true)], "the row starts it again")
    }
}
