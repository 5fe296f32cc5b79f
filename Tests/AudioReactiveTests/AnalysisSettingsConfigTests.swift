import Testing
@testable import AudioReactive

/// The audio-config JSON and the analyzer must agree on every tuning field.
@Suite struct AnalysisSettingsConfigTests {
    @Test func everyTuningFieldHasTheAnalyzersRangeAndDefault() {
        let defaults = AnalysisSettings()
        for field in AudioTuning.fields {
            let mine = AnalysisSettings.limits.first { $0.field == field.key }
            #expect(mine?.range == field.range, "\(field.key) range")
            #expect(mine?.unit == field.unit, "\(field.key) unit")
            #expect(defaults.value(of: field.key) == AudioTuning()[field: field], "\(field.key) default")
        }
        #expect(AnalysisSettings.limits.first { $0.field == "gain" }?.range == AudioConfig.gainRange)
        #expect(AnalysisSettings.defaultBandEdges == AudioBandEdges.standard)
    }

    @Test func aConfigMapsOntoTheSettings() {
        var c = AudioConfig(name: "t")
        c.gain = -6
        c.autoGain = false
        c.bands = [25, 70, 200, 600, 1800, 3500, 7000, 15000]
        for (i, field) in AudioTuning.fields.enumerated() {
            c.tuning[field: field] = field.range.lowerBound + Double(i + 1) / 20 * (field.range.upperBound - field.range.lowerBound)
        }
        let s = AnalysisSettings(config: c)
        for field in AudioTuning.fields { #expect(s.value(of: field.key) == c.tuning[field: field], "\(field.key)") }
        #expect(s.gain == -6 && !s.autoGain && s.bandEdges == c.bands!)
        #expect(s.problems().isEmpty)
        #expect(AnalysisSettings(config: AudioConfig(name: "d")) == AnalysisSettings())
    }
}
