import Engine
import Foundation
import GLEngine
import Storage
import Testing

/// The GPU backend against the CPU reference on small scenes (64k agents,
/// 256×256), on whatever GL the machine has (llvmpipe in CI).
@Suite(.serialized) struct GLParityTests {
    static let size = 256
    static let agents = 65_536

    static func params(_ base: PresetParams = .defaults) -> PresetParams {
        var p = base
        p[.agents] = Double(agents)
        return p
    }

    @Test func oneStepAgreesWithTheCPU() throws {
        let ctx = try GLTestContext()
        _ = ctx
        let p = Self.params()
        let cpu = Simulation(width: Self.size, height: Self.size, params: p, seed: 7, threads: 2)
        let gpu = try GLBackend(field: (Self.size, Self.size), output: (Self.size, Self.size), params: p, seed: 7)
        #expect(gpu.speciesCounts == cpu.speciesCounts)
        for steps in 1...2 {
            cpu.step(p)
            gpu.step(p, count: 1)
            var worst: Float = 0, far = 0, total = 0
            for s in 0..<3 {
                let a = cpu.agentStates(species: s), b = gpu.agentStates(species: s)
                #expect(a.count == b.count)
                for (u, v) in zip(a, b) {
                    let d = max(abs(u.x - v.x), abs(u.y - v.y))
                    worst = max(worst, min(d, Float(Self.size) - d))
                    if min(d, Float(Self.size) - d) > 1e-3 { far += 1 }
                    total += 1
                }
            }
            var trailWorst: Float = 0
            for s in 0..<3 {
                for (u, v) in zip(cpu.trail(species: s), gpu.trail(species: s)) {
                    trailWorst = max(trailWorst, abs(u - v) / max(1, abs(u)))
                }
            }
            if steps == 1 {
                // Fresh sensing planes are zero: every agent moves straight on
                // both, and positions differ by float rounding only.
                #expect(worst <= 1e-3, "step 1: an agent is \(worst) px from the CPU's")
                #expect(trailWorst <= 1e-5, "step 1: trail differs by \(trailWorst) (relative)")
            } else {
                // Step 2 senses half-precision planes: the rare tie broken by
                // rounding turns an agent the other way.
                #expect(Double(far) / Double(total) <= 0.01, "step 2: \(far) of \(total) agents left the CPU's path")
                #expect(trailWorst <= 0.05, "step 2: trail differs by \(trailWorst) (relative)")
            }
        }
    }
}

extension GLParityTests {
    @Test func autoPicksTheCPUUnderASoftwareRasteriser() throws {
        let ctx = try GLTestContext()
        _ = ctx
        let renderer = GLBackend.currentRenderer()
        #expect(GLBackend.contextHasCompute(), "the CI's Mesa offers OpenGL 4.3 compute (\(renderer))")
        if BackendRequest.isSoftware(renderer: renderer) {
            #expect(BackendRequest.auto.resolve(hasCompute: GLBackend.contextHasCompute(), renderer: renderer) == .cpu)
        }
        #expect(BackendRequest.auto.resolve(hasCompute: true, renderer: "llvmpipe (LLVM 15.0.6, 256 bits)") == .cpu)
        #expect(BackendRequest.auto.resolve(hasCompute: true, renderer: "NVIDIA H200/PCIe/SSE2") == .gpu)
        #expect(BackendRequest.auto.resolve(hasCompute: false, renderer: "NVIDIA H200/PCIe/SSE2") == .cpu)
        #expect(BackendRequest.gpu.resolve(hasCompute: true, renderer: "llvmpipe") == .gpu)
    }

    @Test func aBrokenShaderIsReportedByFileAndLine() throws {
        let ctx = try GLTestContext()
        _ = ctx
        let shipped = try #require(ConfigDirectory.subdirectory("shaders").path)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("physarum-shaders-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for f in try FileManager.default.contentsOfDirectory(atPath: shipped) {
            try FileManager.default.copyItem(atPath: shipped + "/" + f, toPath: dir + "/" + f)
        }
        var lines = try String(contentsOfFile: dir + "/diffuse.comp", encoding: .utf8).components(separatedBy: "\n")
        lines[4] = "this is not GLSL;"
        try lines.joined(separator: "\n").write(toFile: dir + "/diffuse.comp", atomically: true, encoding: .utf8)
        let p = Self.params()
        do {
            _ = try GLBackend(field: (64, 64), output: (64, 64), params: p, seed: 1, shaderFolder: dir)
            Issue.record("a broken shader compiled")
        } catch {
            #expect("\(error)".contains(dir + "/diffuse.comp:5:"), "the error names the file and line: \(error)")
        }
    }
}
