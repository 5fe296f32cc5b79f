extension AnalysisSettings {
    /// The analysis settings an audio config asks for: its tuning, manual
    /// gain (dB), auto-gain switch and band edges (default edges when it has none).
    public init(config: AudioConfig) {
        self.init()
        let t = config.tuning
        attack = t.attack
        release = t.release
        gateLow = t.gateLow
        gateHigh = t.gateHigh
        hold = t.hold
        autoGainAdaptation = t.autoGainAdaptation
        onsetSensitivity = t.onsetSensitivity
        refractory = t.refractory
        transientDecay = t.transientDecay
        gain = config.gain
        autoGain = config.autoGain
        bandEdges = config.effectiveBands
    }
}
