import AudioReactive
import Foundation

/// What the audio panel, keys and the I/O workers' replies can ask of the
/// audio side: the edited audio config (controls, tuning, routes), the saved
/// configs and the capture source. Route indices are 0-based.
public enum AudioAction: Equatable, Sendable {
    // Panel
    /// A: shows or hides the audio panel (opening it lists configs and sources).
    case togglePanel

    // Controls
    /// Master switch: routes act only when on.
    case setEnabled(Bool)
    /// Global reactivity (scales every depth), clamped to 0…3.
    case setReactivity(Double)
    case setAutoGain(Bool)
    /// One numeric tuning field (gain included) by its JSON key
    /// (`AudioTuning.fields`), clamped to its range.
    case setTuning(String, Double)

    // Routes
    case addRoute
    case removeRoute(Int)
    case duplicateRoute(Int)
    case toggleMute(Int)
    case toggleSolo(Int)
    case setSource(Int, RouteSource)
    /// Sets a route's target by id; an id that cannot be a target changes nothing (notice).
    case setTarget(Int, String)
    case setMode(Int, RouteMode)
    case setDepth(Int, Double)
    /// Depth back to the value in the config as loaded or saved (or the new-route depth).
    case resetDepth(Int)
    /// Smoothing in ms (0 = none).
    case setSmoothing(Int, Double)
    case setCurve(Int, Double)
    case setInvert(Int, Bool)
    /// Replaces the routes with the default wiring.
    case applyDefaultWiring
    /// A slider drag starts / ends: the changes in between are one undo step.
    case beginEdit
    case endEdit
    case undo
    case redo

    // Saved configs
    case refreshConfigs
    /// Makes a saved config (file) the one in use and edited.
    case applyConfig(URL)
    /// Writes the edited config back to the file it came from (user configs only).
    case save
    /// Saves the edited config under a new name in the user directory (asks before replacing).
    case saveAs(String)
    case rename(URL, String)
    /// Writes the edited config to a file or a folder (the file name follows the config's name).
    case export(String)
    /// Validates a config file, copies it into the user directory and applies it.
    case importConfig(String)
    /// Deletes a user config (asks first).
    case delete(URL)
    /// Answers the pending question with yes / no.
    case confirm
    case cancel

    // Replies of the I/O worker and the live-reload watcher
    case configsListed([AudioConfigStore.Entry])
    /// A config file was read (apply, import): it becomes the one in use.
    case loaded(AudioConfig, URL)
    /// The edited config was written to this file (save, save as): it is now the file followed.
    case saved(AudioConfig, URL)
    /// A config file was renamed.
    case renamed(from: URL, to: URL, name: String)
    case deleted(URL)
    /// The followed file changed on disk and loads.
    case reloaded(AudioConfig, URL)

    // Capture source
    case refreshSources
    case sourcesListed([PulseSourceInfo])
    case sourcesFailed(String)
    /// Capture from this source (nil = the server's default) without restarting.
    case selectSource(String?)
    /// "What the machine plays": the default output's monitor.
    case selectMachineOutput
    /// The microphone: the default source when it is not a monitor, else the first non-monitor source.
    case selectMicrophone

    // Beat tracker
    /// Tap tempo (T), ×2, ÷2, tempo lock, bar reset.
    case beat(BeatCommand)
}

/// Work for the shell after an audio action (the model itself does no I/O).
public enum AudioEffect: Equatable, Sendable {
    /// The edited config changed: give its settings to the analysis and its
    /// master/reactivity/routes to the modulator.
    case configure
    case listConfigs
    case load(URL)
    /// Save `config` under `name` in the user directory.
    case saveAs(AudioConfig, name: String, replace: Bool)
    /// Write `config` over the (valid) file it came from.
    case overwrite(AudioConfig, URL)
    case rename(URL, String)
    case export(AudioConfig, path: String)
    case importFile(path: String)
    case delete(URL)
    /// Follow this file for live reload (nil = follow none).
    case watch(URL?)
    case listSources
    case switchSource(String?)
    /// A command for the running analysis' beat tracker.
    case beat(BeatCommand)
}

/// A destructive audio-config action waiting for the user's yes.
public enum AudioConfirmation: Equatable, Sendable {
    case delete(URL, name: String)
    case replace(name: String)

    /// The question to show.
    public var question: String {
        switch self {
        case .delete(let url, let name): "Delete the audio config \"\(name)\" (\(url.lastPathComponent))?"
        case .replace(let name): "A config named \"\(name)\" exists. Replace it with the edited config?"
        }
    }
}
