import Engine
import Testing
@testable import LiveCore
@testable import LiveApp

/// The host's frame-loop side with a real `AppModel`: network events (posted
/// straight into the inbox, no traffic) become actions in the right order.
@Suite struct RemoteHostLinkTests {
    static func preset(_ id: String, exposure: Double) -> Preset {
        var p = PresetParams.defaults
        p[.exposure] = exposure
        return Preset(id: id, name: id, params: p)
    }

    static let presets = [preset("alpha", exposure: 1), preset("beta", exposure: 2), preset("gamma", exposure: 3)]

    final class Shell {
        var model = AppModel(presets: RemoteHostLinkTests.presets)
        var applied: [AppAction] = []
        var reseeds = 0
        func apply(_ a: AppAction) {
            applied.append(a)
            for e in model.handle(a) where e == .reseed { reseeds += 1 }
        }
    }

    static func link(_ policy: DisconnectPolicy = .cycle) throws -> HostLink {
        HostLink(host: try RemoteHost(listen: HostPort(host: "127.0.0.1", port: 0), token: nil), onDisconnect: policy)
    }

    @Test func aPushedOrSentAgentCountOverTheHostsCapIsCappedWithANotice() throws {
        let link = HostLink(host: try RemoteHost(listen: HostPort(host: "127.0.0.1", port: 0), token: nil), onDisconnect: .cycle,
                            maxAgents: 200_000)
        let shell = Shell()
        var pushed = shell.model.base
        pushed[.agents] = 8_000_000
        (link.host as! RemoteHost).inbox.post(.connected(connection: 1, push: RemoteState(presetID: nil, params: pushed, playlist: false)))
        link.pump(model: { shell.model }) { shell.apply($0) }
        #expect(shell.model.base[.agents] == 200_000, "the pushed 8M agents are capped")
        #expect(shell.model.notices.items.contains { $0.text.contains("8000000 agents") && $0.text.contains("at most 200000") })
        (link.host as! RemoteHost).inbox.post(.params(seq: 1, [.scalar(.agents, 5_000_000), .scalar(.exposure, 1.7)]))
        link.pump(model: { shell.model }) { shell.apply($0) }
        #expect(shell.model.base[.agents] == 200_000 && shell.model.base[.exposure] == 1.7, "a sent count too; the rest applies")
        (link.host as! RemoteHost).inbox.post(.params(seq: 2, [.scalar(.agents, 150_000)]))
        link.pump(model: { shell.model }) { shell.apply($0) }
        #expect(shell.model.base[.agents] == 150_000, "under the cap: as sent")
    }

    @Test func aPushedStateLoadsThePresetThenReappliesItsParams() throws {
        let link = try Self.link()
        let shell = Shell()
        var pushed = Self.presets[2].params
        pushed[.exposure] = 3.3
        pushed.blendMode = .paint
        (link.host as! RemoteHost).inbox.post(.connected(connection: 1, push: RemoteState(presetID: "gamma", params: pushed, playlist: true)))
        link.pump(model: { shell.model }) { shell.apply($0) }
        #expect(shell.applied.first == .jumpTo("gamma"), "the preset first (a reseed)…")
        #expect(shell.reseeds == 1)
        #expect(shell.applied.contains(.setParam(.exposure, 3.3)) && shell.applied.contains(.setBlendMode(.paint)), "…then the edits")
        #expect(shell.model.currentPreset?.id == "gamma" && shell.model.base == pushed && shell.model.playlistOn)
    }

    @Test func inAWindowAPushedPresetComesThroughTheFadeAndItsParamsAfterTheReseed() throws {
        let link = try Self.link()
        let shell = Shell()
        var fades: [String] = []
        link.requestFade = { fades.append($0) }
        var pushed = Self.presets[1].params
        pushed[.exposure] = 2.5
        (link.host as! RemoteHost).inbox.post(.connected(connection: 1, push: RemoteState(presetID: "beta", params: pushed, playlist: false)))
        link.pump(model: { shell.model }) { shell.apply($0) }
        #expect(fades == ["beta"] && shell.applied.isEmpty, "nothing cuts: the fade is asked for")
        let revision = link.revision
        link.publish(model: shell.model)
        #expect(link.revision == revision, "the old look is not published while the push waits")
        link.completePush(fadePending: true, model: { shell.model }) { shell.apply($0) }
        #expect(shell.applied.isEmpty, "still fading out")
        shell.apply(.jumpTo("beta"))  // the black point
        link.completePush(fadePending: false, model: { shell.model }) { shell.apply($0) }
        #expect(shell.reseeds == 1 && shell.model.base == pushed && shell.model.currentPreset?.id == "beta")
        link.publish(model: shell.model)
        #expect(link.revision > revision)
    }

    @Test func pullPausesCyclingAndLeavingResumesIt() throws {
        for policy in DisconnectPolicy.allCases {
            let link = try Self.link(policy)
            let shell = Shell()
            shell.apply(.togglePlaylist)
            (link.host as! RemoteHost).inbox.post(.connected(connection: 4, push: nil))
            link.pump(model: { shell.model }) { shell.apply($0) }
            #expect(!shell.model.playlistOn, "someone is at the controls")
            #expect(link.remoteConnected)
            (link.host as! RemoteHost).inbox.post(.disconnected(reason: "closed by the peer"))
            link.pump(model: { shell.model }) { shell.apply($0) }
            #expect(shell.model.playlistOn == (policy == .cycle), "\(policy)")
            #expect(!link.remoteConnected)
        }
    }

    @Test func intentsAndParamsGoThroughTheActionLayerAndBumpTheRevision() throws {
        let link = try Self.link()
        let shell = Shell()
        link.publish(model: shell.model)
        let r0 = link.revision
        link.publish(model: shell.model)
        #expect(link.revision == r0, "no change, no new revision")
        (link.host as! RemoteHost).inbox.post(.connected(connection: 1, push: nil))
        (link.host as! RemoteHost).inbox.post(.intent(seq: 1, .next))
        (link.host as! RemoteHost).inbox.post(.params(seq: 2, [.scalar(.decay, 0.9), .spawnPattern(.ring)]))
        (link.host as! RemoteHost).inbox.post(.intent(seq: 3, .jumpTo("nowhere")))
        (link.host as! RemoteHost).inbox.post(.intent(seq: 4, .showOverlay))
        link.pump(model: { shell.model }) { shell.apply($0) }
        #expect(shell.model.currentPreset?.id == "beta")
        #expect(shell.model.base[.decay] == 0.9 && shell.model.base.spawnPattern == .ring)
        #expect(!shell.applied.contains(.jumpTo("nowhere")), "an unknown preset is rejected, not applied")
        #expect(shell.model.overlayVisible)
        link.publish(model: shell.model)
        #expect(link.revision > r0)
        let r1 = link.revision
        (link.host as! RemoteHost).inbox.post(.intent(seq: 5, .dismissOverlay))
        (link.host as! RemoteHost).inbox.post(.intent(seq: 6, .dismissOverlay))
        link.pump(model: { shell.model }) { shell.apply($0) }
        #expect(!shell.model.overlayVisible, "dismiss is idempotent, not a toggle")
        link.publish(model: shell.model)
        #expect(link.revision == r1 + 1)
    }
}
