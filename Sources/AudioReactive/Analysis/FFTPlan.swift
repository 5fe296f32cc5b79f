import CFFTW
import Synchronization

/// FFTW's planner is not thread-safe: every plan creation and destruction in
/// the process goes through this lock. `fftwf_execute` needs no lock.
private let fftwPlannerLock = Mutex<Void>(())

/// A real-to-complex single-precision FFT of fixed length over buffers from
/// `fftwf_malloc`, planned once with `FFTW_ESTIMATE` (measured plans change
/// round-off between runs; estimated ones are reproducible).
///
/// Thread-safety: one instance is used by one thread at a time (it owns its
/// buffers); different instances may execute concurrently.
final class FFTPlan {
    /// Transform length (samples).
    let size: Int
    /// Number of output bins: `size / 2 + 1`.
    var binCount: Int { size / 2 + 1 }

    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan

    /// Plans a transform of `size` samples (`fftwf_plan_dft_r2c_1d`).
    init(size: Int) {
        precondition(size >= 16 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        guard let inRaw = fftwf_malloc(MemoryLayout<Float>.stride * size),
              let outRaw = fftwf_malloc(MemoryLayout<fftwf_complex>.stride * (size / 2 + 1))
        else { fatalError("fftwf_malloc failed for an FFT of \(size) points") }
        input = inRaw.bindMemory(to: Float.self, capacity: size)
        input.initialize(repeating: 0, count: size)
        output = outRaw.bindMemory(to: fftwf_complex.self, capacity: size / 2 + 1)
        output.initialize(repeating: (0, 0), count: size / 2 + 1)
        nonisolated(unsafe) let inPtr = input, outPtr = output
        let made = fftwPlannerLock.withLock { _ in
            PlanBox(plan: fftwf_plan_dft_r2c_1d(Int32(size), inPtr, outPtr, cfftw_estimate()))
        }.plan
        guard let made else { fatalError("fftwf_plan_dft_r2c_1d failed for \(size) points") }
        plan = made
    }

    deinit {
        let box = PlanBox(plan: plan)
        fftwPlannerLock.withLock { _ in fftwf_destroy_plan(box.plan) }
        fftwf_free(input)
        fftwf_free(output)
    }

    /// Fills the input with `window[i] * samples[i]`, runs the transform and
    /// writes the power `re² + im²` of every bin into `power` (`binCount` values).
    func powerSpectrum(samples: UnsafePointer<Float>, window: UnsafePointer<Float>,
                       power: UnsafeMutablePointer<Float>) {
        let n = size
        for i in 0..<n { input[i] = samples[i] * window[i] }
        fftwf_execute(plan)
        let bins = binCount
        output.withMemoryRebound(to: Float.self, capacity: 2 * bins) { c in
            for k in 0..<bins {
                let re = c[2 * k], im = c[2 * k + 1]
                power[k] = re * re + im * im
            }
        }
    }
}

/// Carries a plan pointer across the planner lock's closure boundary; the
/// pointer is only used by the thread holding the lock or owning the plan.
private struct PlanBox: @unchecked Sendable {
    let plan: fftwf_plan?
}
