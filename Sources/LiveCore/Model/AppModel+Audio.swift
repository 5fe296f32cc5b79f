/// The audio panel inside the app's one state machine: `AppModel.handle`
/// forwards `.audio` actions here.
extension AppModel {
    /// Applies an audio action: the audio model changes, notices are posted,
    /// its work comes back as `.audio` effects.
    public mutating func handleAudio(_ action: AudioAction) -> [AppEffect] {
        let out = audio.handle(action)
        var effects = out.effects.map(AppEffect.audio)
        for n in out.notices where notices.post(n.text, n.level) { effects.append(.logNotice(n.text)) }
        return effects
    }
}
