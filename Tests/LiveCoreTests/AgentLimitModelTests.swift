import Engine
import Testing
@testable import LiveCore

/// The app model holds every agent count to its limit, whatever brings it:
/// a preset, an edit (OSC, MIDI and the panels send these), a remote's
/// params, a session, `--agents`.
@Suite struct AgentLimitModelTests {
    static let limit = AgentLimit(count: 2_000_000, reason: "the test engine's limit")

    static func preset(_ id: String, agents: Double) -> Preset {
        var p = PresetParams.defaults
        p[.agents] = agents
        return Preset(id: id, name: id, tags: [], params: p)
    }

    static func notices(_ m: AppModel) -> [String] { m.notices.history.map(\.text) }

    @Test func everyWayACountArrivesIsHeld() {
        var m = AppModel(presets: [Self.preset("small", agents: 100_000), Self.preset("huge", agents: 128_000_000)])
        m.agentLimit = Self.limit
        #expect(m.base[.agents] == 100_000 && Self.notices(m).isEmpty)
        // A preset asking for more.
        _ = m.handle(.jumpTo("huge"))
        #expect(m.base[.agents] == 2_000_000)
        #expect(Self.notices(m).last == "128 000 000 agents asked for; running 2 000 000 instead: the test engine's limit")
        #expect(!m.isEdited, "the preset's own count is held too, so it does not look edited")
        // An edit (OSC, MIDI, the panel, a remote's params all arrive as these).
        _ = m.handle(.jumpTo("small"))
        _ = m.handle(.setParam(.agents, 50_000_000))
        #expect(m.base[.agents] == 2_000_000)
        #expect(Self.notices(m).last?.hasPrefix("50 000 000 agents asked for") == true)
        // A session.
        var s = PresetParams.defaults
        s[.agents] = 9_000_000
        m.restoreSession(presetID: nil, base: s, locks: [], uiScale: 1)
        #expect(m.base[.agents] == 2_000_000)
        // --agents.
        m.agentOverride = 64_000_000
        #expect(m.base[.agents] == 2_000_000)
        _ = m.handle(.jumpTo("small"))
        #expect(m.base[.agents] == 2_000_000, "the override applies to every preset, held")
    }

    @Test func aLimitLearnedLaterLowersTheCurrentLook() {
        var m = AppModel(presets: [Self.preset("huge", agents: 128_000_000)])
        #expect(m.base[.agents] == 128_000_000, "no limit known yet")
        m.agentLimit = Self.limit
        #expect(m.base[.agents] == 2_000_000)
        #expect(Self.notices(m).count == 1)
    }
}
