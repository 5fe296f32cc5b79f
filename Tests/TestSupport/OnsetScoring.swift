import AudioReactive
import Foundation

/// Ground truth and scoring for onset measurements on the drum synthesiser
/// (used by the onset-accuracy tests and the audio-reactive render tests).
///
/// Onset time of a hit: the first sample at which the hit, rendered alone,
/// reaches −30 dB below its own peak (TESTING.md: synthesisers add their own
/// start delays, so the time is measured, not assumed). Hits whose onsets lie
/// within 30 ms of each other (a kick and a hat on the same step, humanised)
/// are one perceived onset, at the earliest. Pure functions.
public enum OnsetScoring {
    /// The perceived onset times (seconds, sorted) of `hits`.
    public static func onsetTimes(of hits: [DrumHit], sampleRate: Double = 48000) -> [Double] {
        var times: [Double] = []
        for h in hits {
            let alone = DrumPattern.renderAlone(h, sampleRate: sampleRate)
            let p = alone.reduce(0) { max($0, abs($1)) }
            let threshold = p * amplitude(dB: -30)
            let first = alone.firstIndex { abs($0) >= threshold } ?? 0
            times.append(Double(h.sample + first) / sampleRate)
        }
        times.sort()
        var merged: [Double] = []
        for t in times where merged.last.map({ t - $0 >= 0.03 }) ?? true { merged.append(t) }
        return merged
    }

    /// How well detections match the truth.
    public struct Score: Sendable, CustomStringConvertible {
        public var truths: Int, detections: Int, matched: Int
        /// Per matched detection: its time minus its onset's.
        public var delays: [Double]
        /// Matched ÷ detections (0 without detections).
        public var precision: Double { detections == 0 ? 0 : Double(matched) / Double(detections) }
        /// Matched ÷ truths (0 without truths).
        public var recall: Double { truths == 0 ? 0 : Double(matched) / Double(truths) }
        /// Harmonic mean of precision and recall.
        public var fMeasure: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
        /// Median delay (infinity without matches).
        public var medianDelay: Double {
            let s = delays.sorted()
            return s.isEmpty ? .infinity : s[s.count / 2]
        }
        public var description: String {
            String(format: "onsets %d, detections %d, matched %d, P %.3f R %.3f F %.3f, median delay %.2f ms",
                   truths, detections, matched, precision, recall, fMeasure, medianDelay * 1000)
        }
    }

    /// Greedy one-to-one matching in time order within ± `tolerance` (in the
    /// units of the inputs: seconds, or frames); both lists sorted.
    public static func score(truth: [Double], detections: [Double], tolerance: Double = 0.05) -> Score {
        var used = [Bool](repeating: false, count: detections.count)
        var delays: [Double] = []
        var j = 0
        for t in truth {
            while j < detections.count && detections[j] < t - tolerance { j += 1 }
            var k = j
            while k < detections.count && detections[k] <= t + tolerance {
                if !used[k] {
                    used[k] = true
                    delays.append(detections[k] - t)
                    break
                }
                k += 1
            }
        }
        return Score(truths: truth.count, detections: detections.count, matched: delays.count, delays: delays)
    }
}
