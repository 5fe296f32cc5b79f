import ImGuiShim
import LiveCore

/// The MIDI panel's Ableton Link section: join/leave, peers, the session's
/// tempo and where in the bar it is, the quantum, start/stop sync and the
/// transport. Rect keys: "link", "linkQuantum", "linkStartStop", "linkStart", "linkStop".
extension MidiPanel {
    mutating func link(_ settings: LinkSettings, _ reading: LinkReading?, _ dispatch: (AppAction) -> Void) {
        guard section("Ableton Link", "header:Ableton Link") else { return }
        var on = settings.enabled
        if UI.checkbox("Join the Link session", &on) { dispatch(.control(.setLink(on))) }
        rects["link"] = UI.lastItemRect
        UI.sameLine()
        UI.pushID("link")  // help markers share the button id "?##help": one scope each
        rects["help:link"] = PreciseSlider.helpMarker("Link", Self.linkHelp).rect
        UI.popID()
        if let r = reading {
            let beatInBar = Int(r.phase.rounded(.down)) + 1
            UI.text(String(format: "%d peer%@ · %.1f BPM · beat %d of %@%@", r.peers, r.peers == 1 ? "" : "s", r.bpm, beatInBar,
                           AppModel.beats(r.quantum), r.startStopSync ? (r.playing ? " · playing" : " · stopped") : ""))
        } else if settings.enabled {
            UI.textDisabled("Joining…")
        } else {
            UI.textDisabled("Not joined: the tempo comes from MIDI clock or the beat tracker.")
        }
        slider("linkQuantum", settings.quantum, PreciseSlider.Spec(min: LinkSettings.quantumRange.lowerBound,
                                                                       max: LinkSettings.quantumRange.upperBound, integer: true, format: "%d beats"),
               label: "Quantum (beats per bar)", help: "Bars of the shared phase: synced preset changes and the set list land where the session's bar starts.") {
            dispatch(.control(.setLinkQuantum($0)))
        }
        var sync = settings.startStopSync
        if UI.checkbox("Start/stop sync", &sync) { dispatch(.control(.setLinkStartStopSync(sync))) }
        rects["linkStartStop"] = UI.lastItemRect
        if settings.enabled && settings.startStopSync {
            UI.sameLine()
            if UI.smallButton("Start") { dispatch(.control(.linkTransport(true))) }
            rects["linkStart"] = UI.lastItemRect
            UI.sameLine()
            if UI.smallButton("Stop") { dispatch(.control(.linkTransport(false))) }
            rects["linkStop"] = UI.lastItemRect
        }
    }

    static let linkHelp = "Ableton Link shares tempo and bar phase with DJ and VJ software on the local network (Traktor, Rekordbox, Mixxx, Ableton Live, Resolume…). Joined, Link is the tempo source; a tap or an OSC /tempo is proposed to the session. Leaving falls back to MIDI clock or the beat tracker."
}
