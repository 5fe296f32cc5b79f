import Engine
import LiveCore

/// The frame-loop side of a remote editor. Local edits are applied at once
/// and mirrored to the host; intents (next, previous, playlist, jumps) go to
/// the host, whose `state` then drives the local look. Edits the host has not
/// acknowledged yet stay on top of its state, so sliders never jump back.
/// While not connected, the editor works on its own. No socket I/O here.
/// Main thread only.
final class RemoteEditorLink: ActionObserver {
    let client: RemoteClient
    /// The latest state from the host (nil until the first after each greeting).
    private(set) var host: RemoteState?
    private(set) var status = RemoteStatus.connecting(attempt: 1)
    /// The last error the host reported, for the window.
    private(set) var lastHostError: String?
    /// The last sequence number used.
    private(set) var seq: UInt64 = 0
    /// Local changes sent but not yet acknowledged, oldest first.
    private var unacked: [(seq: UInt64, values: [ParamAssignment])] = []
    /// The host preset adopted last (to reseed only when it changes).
    private var adoptedPreset: String??
    /// True while the host's own look is being adopted (it is not mirrored back).
    private var adopting = false

    init(client: RemoteClient) { self.client = client }

    /// Connects to `target` and starts the client with `model`'s look (which
    /// `--push` sends on connecting). Throws a one-line message when the
    /// address cannot be used.
    static func connect(to target: RemoteTarget, model: AppModel) throws -> RemoteEditorLink {
        let client: RemoteClient
        do {
            client = try RemoteClient(target: target.host, token: target.token, push: target.push,
                                      giveUpAfter: target.keepTrying ? nil : RemoteClient.defaultAttempts)
        } catch {
            throw RuntimeFailure("remote: \(error)")
        }
        client.setLook(look(model))  // before connecting
        client.start()
        return RemoteEditorLink(client: client)
    }

    /// Connected and holding the host's state: edits and intents go to the host.
    var synced: Bool { status == .connected && host != nil }

    /// Every local change is acknowledged by the host.
    var settled: Bool { synced && unacked.isEmpty && (host?.ack ?? 0) >= seq }

    /// Local changes sent and not yet acknowledged (a script waits while there are many).
    var unackedCount: Int { unacked.count }

    /// One line for the window's status notice and stderr.
    var statusLine: String {
        let line = status.label(host: client.target.description)
        return synced && host?.playlist == true ? line + " — the host is cycling presets" : line
    }

    /// Called before the shell applies `action`; true when it was sent to the
    /// host instead (an intent while synced), so the shell must not apply it.
    func intercept(_ action: AppAction) -> Bool {
        guard synced else { return false }
        let intent: RemoteIntent
        switch action {
        case .next: intent = .next
        case .previous: intent = .previous
        case .togglePlaylist: intent = .togglePlaylist
        case .jumpTo(let id): intent = .jumpTo(id)
        case .setList(let a):
            guard let c = SetListCommand.allCases.first(where: { $0.action == a }) else { return false }
            intent = .setList(c)
        default: return false
        }
        send(intent)
        return true
    }

    /// Sends an intent to the host (only while synced; false otherwise).
    @discardableResult
    func send(_ intent: RemoteIntent) -> Bool {
        guard synced else { return false }
        seq += 1
        client.post(.intent(seq: seq, intent))
        return true
    }

    /// Called after the shell applied a local action: mirrors the look's
    /// changes to the host (the client throttles them).
    func applied(before: PresetParams, after: PresetParams) {
        if !adopting { mirror(from: before, to: after) }
    }

    func mirror(from before: PresetParams, to after: PresetParams) {
        guard synced else { return }
        let changes = ParamAssignment.diff(from: before, to: after)
        guard !changes.isEmpty else { return }
        seq += 1
        unacked.append((seq, changes))
        client.post(.params(seq: seq, changes))
    }

    /// Whether a status line goes to stderr too (the window shows every one):
    /// connected, stopped, and a retry after a lost connection (or while
    /// `--wait` keeps trying). Trying to reach a host that never answered
    /// prints nothing until it gives up, in one line.
    private var everConnected = false
    func logsToStderr(_ s: RemoteStatus) -> Bool {
        switch s {
        case .connected:
            everConnected = true
            return true
        case .stopped: return true
        case .retrying: return everConnected || client.giveUpAfter == nil
        case .connecting: return client.giveUpAfter == nil
        }
    }

    /// Takes in what the network brought: status changes and host states.
    /// Returns the action that adopts the host's look (plus unacknowledged
    /// local edits), when it differs from `model`'s or the preset changed
    /// (then the action reseeds), and the status lines to log on stderr.
    func update(model: AppModel) -> (adopt: AppAction?, messages: [String]) {
        var messages: [String] = []
        var newest: RemoteState?
        for e in client.drain() {
            switch e {
            case .status(let s):
                status = s
                if logsToStderr(s) { messages.append(statusLine) }
            case .greeted:
                host = nil
                newest = nil
                unacked.removeAll()
                adoptedPreset = nil
            case .state(let s):
                newest = s
            case .hostError(let code, let message):
                lastHostError = "\(code): \(message)"
                messages.append("Remote: the host says \(message)")
            }
        }
        if client.push { client.setLook(Self.look(model)) }
        guard let s = newest else { return (nil, messages) }
        host = s
        unacked.removeAll { $0.seq <= s.ack }
        var base = s.params
        for u in unacked { for v in u.values { v.apply(to: &base) } }
        let reseed = adoptedPreset != .some(s.presetID)
        guard reseed || base != model.base else { return (nil, messages) }
        adoptedPreset = .some(s.presetID)
        return (.adoptRemoteLook(presetID: s.presetID, base: base, reseed: reseed), messages)
    }

    /// The mirrored state for `--state-file`: the host's preset, cycling and
    /// revision with the local parameters.
    func state(_ model: AppModel) -> RemoteState {
        guard let h = host else { return HostLink.snapshot(model) }
        var s = h
        s.params = model.base
        return s
    }

    /// The look pushed in `hello`.
    static func look(_ model: AppModel) -> RemoteState {
        RemoteState(presetID: model.currentPreset?.id, params: model.base, playlist: model.playlistOn)
    }
}

/// The remote editor as a session source: the host's look comes in as an
/// action (never written into the model directly); status lines go to stderr.
extension RemoteEditorLink: ActionSource {
    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        let (adopt, messages) = update(model: inbox.model)
        for m in messages { printError("physarum: \(m)") }
        if let adopt {
            adopting = true
            inbox.post(adopt)
            adopting = false
        }
    }
}
