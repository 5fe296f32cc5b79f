import LiveCore

/// Remote control of the live window: a host (`--listen`: the listener,
/// its DNS-SD announcement and the frame-loop link) or a remote editor
/// (`physarum remote`), or neither. `register` puts them on the session.
/// Main thread only.
struct RemoteSide {
    var host: RemoteHost?
    var link: HostLink?
    /// Announces the host on the local network when it listens beyond loopback.
    var announcer: HostAnnouncer?
    var editor: RemoteEditorLink?

    /// Starts the host's listener or the remote's connection from the options.
    static func start(options: LiveOptions, model: AppModel, maxAgents: Int) throws -> RemoteSide {
        var side = RemoteSide()
        if let listen = options.listen {
            let host = try RemoteHostSetup.start(listen: listen, token: options.token)
            side.host = host
            side.announcer = RemoteHostSetup.announce(host)
            side.link = HostLink(host: host, onDisconnect: options.onDisconnect, maxAgents: maxAgents)
        }
        if let target = options.remote {
            side.editor = try RemoteEditorLink.connect(to: target, model: model)
        }
        return side
    }

    /// Registers the editor (early: the host's look before local input is
    /// read) as a source and observer, or the host's link after `cycle`
    /// (a pushed look fades through it) with its announcer, and the link as
    /// the feedback that publishes the state.
    func registerEarly(on session: LiveSession) {
        if let editor {
            session.add(source: editor)
            session.dispatcher.observer = editor
        }
    }

    func registerLate(on session: LiveSession, fadingThrough cycle: AutoCycleSource?) {
        if let link {
            if let cycle { link.fade(through: cycle) }
            session.add(source: link)
            session.add(feedback: link)
        }
        if let announcer { session.add(source: announcer) }
    }

    /// What the window says about remote control when it is a host.
    var hostStatus: HostStatus? {
        host.map { RemoteHostSetup.status(host: $0, link: link, announcer: announcer) }
    }

    func stop() {
        announcer?.withdraw()  // before the listener closes
        host?.stop()
        editor?.client.stop()
    }
}

/// A problem announcing the host becomes a notice (the remote must type the address).
extension HostAnnouncer: ActionSource {
    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        if let p = takeProblem() {
            inbox.post(.notice("Remote control: not announced on the local network: \(p); a remote must type the address", .warning))
        }
    }
}
