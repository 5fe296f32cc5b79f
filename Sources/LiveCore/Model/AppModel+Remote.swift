import Engine

extension AppModel {
    /// Takes a look from the remote host as the current one (remote mode):
    /// no undo step, locks and UI scale kept. The preset becomes the loaded one
    /// when this model knows it. The caller reseeds when the preset changed.
    public mutating func adoptRemoteLook(presetID: String?, base: PresetParams) {
        restoreSession(presetID: presetID, base: base, locks: locks, uiScale: uiScale)
    }
}
