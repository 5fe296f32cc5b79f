import Testing
@testable import AudioReactive

@Suite struct AudioFeaturesTests {
    @Test func silentFeaturesAreZero() {
        let f = AudioFeatures.silent
        for id in AudioSourceID.allCases { #expect(f[id] == SourceFeatures()) }
        #expect(AudioSourceID.allCases.count == AudioSourceID.count)
    }
}
