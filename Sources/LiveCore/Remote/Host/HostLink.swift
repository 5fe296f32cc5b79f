import Engine
import Foundation

/// What the host does when its remote goes away (`--on-disconnect`).
public enum DisconnectPolicy: String, Sendable, CaseIterable {
    /// Resume autonomous cycling through presets.
    case cycle
    /// Keep the current look and cycling setting.
    case hold
}

/// The network side of a host as the frame loop sees it (`RemoteHost` in
/// the app; a test double in tests): events in, states and refusals out.
/// Its methods only queue; they never block on a socket.
public protocol HostTransport: AnyObject {
    /// Events that arrived since the last call, in order.
    func drain() -> [HostEvent]
    /// Sends `state` to connection `connection` (latest wins).
    func publish(_ state: RemoteState, connection: Int)
    /// Sends an error message to `connection`.
    func reject(_ message: String, connection: Int)
    /// The address connection `connection` comes from (nil when unknown).
    func peerAddress(connection: Int) -> String?
}

extension HostTransport {
    /// No address known (test doubles).
    public func peerAddress(connection: Int) -> String? { nil }
}

/// The frame-loop side of a host: turns network events into app actions
/// (applied by the shell through `AppModel.handle`) and publishes the state
/// after each frame when it changed. No socket I/O here: `RemoteHost` owns
/// the network thread; this only drains its inbox and posts snapshots.
/// Main thread only.
public final class HostLink {
    public let host: any HostTransport
    public let onDisconnect: DisconnectPolicy
    /// Increases whenever the published state changes.
    public private(set) var revision: UInt64 = 0
    /// The connection id of the current remote.
    public private(set) var connection: Int?
    /// Remotes that connected so far, and why the last one left.
    public private(set) var connects = 0
    public private(set) var lastDisconnect: String?
    private var ack: UInt64 = 0
    private var last: RemoteState?
    private var force = false
    /// Set by a windowed host: a pushed look that changes the preset goes
    /// through this fade (out to black, switch, in) instead of cutting.
    public var requestFade: ((String) -> Void)?
    /// Whether the fade `requestFade` started is still on its way (a session drain completes the push after it).
    public var fadePending: () -> Bool = { false }
    /// A pushed look waiting for the fade's black point; no state is
    /// published meanwhile (the remote would see the old look).
    public private(set) var pendingPush: RemoteState?

    /// Most agents a remote may set (`--max-agents`); a larger count, pushed
    /// or sent, is lowered to it with a notice on both sides.
    public let maxAgents: Int

    /// One million agents per core (at most the parameter's own maximum): about
    /// what a host renders at a usable frame rate.
    public static var defaultMaxAgents: Int {
        min(Int(ParamRegistry.scalars[ParamKey.agents.index].max), 1_000_000 * max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    public init(host: any HostTransport, onDisconnect: DisconnectPolicy, maxAgents: Int = HostLink.defaultMaxAgents) {
        self.host = host
        self.onDisconnect = onDisconnect
        self.maxAgents = maxAgents
    }

    /// Whether a remote is connected.
    public var remoteConnected: Bool { connection != nil }

    /// The connected remote's address, when one is connected.
    public var remotePeer: String? { connection.flatMap { host.peerAddress(connection: $0) } }

    /// Applies what arrived from the network, in order, through `apply`
    /// (which must run `AppModel.handle` and its effects). `model` reads the
    /// model as it is after the actions so far.
    public func pump(model: () -> AppModel, apply: (AppAction) -> Void) {
        for event in host.drain() {
            switch event {
            case .connected(let id, let push):
                connection = id
                connects += 1
                ack = 0
                force = true
                if let push {
                    applyPush(push, model: model, apply: apply)
                } else if model().playlistOn {
                    // Someone is at the controls: autonomous cycling pauses.
                    apply(.togglePlaylist)
                }
            case .intent(let seq, let intent):
                ack = seq
                applyIntent(intent, model: model, apply: apply)
            case .params(let seq, let values):
                ack = seq
                // Live, without a crossfade; one undo step per message.
                apply(.beginEdit)
                for v in capped(values, apply: apply) { apply(v.action) }
                apply(.endEdit)
            case .disconnected(let reason):
                connection = nil
                lastDisconnect = reason
                if onDisconnect == .cycle && !model().playlistOn { apply(.togglePlaylist) }
                apply(.notice("Remote disconnected: \(reason)", .info))
            }
        }
    }

    /// Publishes the state when it (or the acknowledged message) changed since
    /// the last call, bumping the revision; call once per frame after `pump`.
    public func publish(model: AppModel) {
        guard pendingPush == nil else { return }
        let s = Self.snapshot(model)
        let changed = s != last || force
        force = false
        if changed {
            revision += 1
            last = s
        }
        guard let id = connection else { return }
        if changed || ack != sentAck {
            if !changed { revision += 1 }
            sentAck = ack
            var out = s
            out.revision = revision
            out.ack = ack
            host.publish(out, connection: id)
        }
    }

    private var sentAck: UInt64 = 0

    /// The model's shareable state (revision and ack left at 0).
    public static func snapshot(_ model: AppModel) -> RemoteState {
        RemoteState(presetID: model.currentPreset?.id, params: model.base, playlist: model.playlistOn,
                    overlay: model.overlayVisible, edited: model.isEdited)
    }

    private func applyIntent(_ intent: RemoteIntent, model: () -> AppModel, apply: (AppAction) -> Void) {
        switch intent {
        case .next: apply(.next)
        case .previous: apply(.previous)
        case .togglePlaylist: apply(.togglePlaylist)
        case .jumpTo(let id):
            if model().presets.contains(where: { $0.id == id }) {
                apply(.jumpTo(id))
            } else if let c = connection {
                host.reject("there is no preset '\(id)' on this host", connection: c)
            }
        case .showOverlay: if !model().overlayVisible { apply(.toggleOverlay) }
        case .dismissOverlay: if model().overlayVisible { apply(.toggleOverlay) }
        case .setList(let c): apply(.setList(c.action))
        }
    }

    /// Loads the pushed preset (a reseed), then re-applies the pushed
    /// parameters on top, so the look is the remote's exactly. With
    /// `requestFade` set (a window), the preset comes in through a fade to
    /// black and the parameters follow at the black point (`completePush`).
    private func applyPush(_ push: RemoteState, model: () -> AppModel, apply: (AppAction) -> Void) {
        if let id = push.presetID, id != model().currentPreset?.id {
            if model().presets.contains(where: { $0.id == id }) {
                if let requestFade {
                    // The rest (parameters, cycling) at the black point: `completePush`.
                    pendingPush = push
                    requestFade(id)
                    return
                }
                apply(.jumpTo(id))
            } else if let c = connection {
                host.reject("there is no preset '\(id)' on this host; its parameters were applied to the current one", connection: c)
            }
        }
        applyPushedParams(push, model: model, apply: apply)
    }

    /// Call each frame after the fade's switch (if any) was applied: once the
    /// pushed preset is loaded (and reseeded), re-applies the pushed
    /// parameters on top. A fade that no longer runs (someone switched by
    /// hand) drops the push.
    public func completePush(fadePending: Bool, model: () -> AppModel, apply: (AppAction) -> Void) {
        guard let push = pendingPush else { return }
        if model().currentPreset?.id == push.presetID {
            pendingPush = nil
            applyPushedParams(push, model: model, apply: apply)
        } else if !fadePending {
            pendingPush = nil
        }
    }

    /// `values` with an agent count over `maxAgents` lowered to it, said in a
    /// notice here and an error to the remote.
    private func capped(_ values: [ParamAssignment], apply: (AppAction) -> Void) -> [ParamAssignment] {
        values.map { v in
            guard case .scalar(let k, let n) = v, k == .agents, n > Double(maxAgents) else { return v }
            let text = "a remote asked for \(Int(n)) agents; this host runs at most \(maxAgents) (--max-agents)"
            apply(.notice("Remote: \(text)", .warning))
            if let c = connection { host.reject(text, connection: c) }
            return .scalar(.agents, Double(maxAgents))
        }
    }

    private func applyPushedParams(_ push: RemoteState, model: () -> AppModel, apply: (AppAction) -> Void) {
        let changes = capped(ParamAssignment.diff(from: model().base, to: push.params), apply: apply)
        if !changes.isEmpty {
            apply(.beginEdit)
            for v in changes { apply(v.action) }
            apply(.endEdit)
        }
        if push.playlist != model().playlistOn { apply(.togglePlaylist) }
    }
}
