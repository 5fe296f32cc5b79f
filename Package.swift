// swift-tools-version: 6.2
import Foundation
import PackageDescription

/// The engine's hot loops are written for 8-wide SIMD. When the machine that
/// builds is an x86-64 with AVX2 + FMA (Haswell, 2013, or newer; every x86-64-v3
/// CPU), the Engine module is compiled for it: measured 2-3x faster simulation
/// with bit-identical results (no FMA contraction happens in Swift). Set
/// PHYSARUM_PORTABLE=1 to build a baseline x86-64 binary to copy elsewhere.
let engineSwiftFlags: [String] = {
    let env = ProcessInfo.processInfo.environment
    guard env["PHYSARUM_PORTABLE"] == nil,
          let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
          let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") })
    else { return [] }
    let flags = Set(line.split(separator: " ").map(String.init))
    let haswell: Set<String> = ["avx", "avx2", "fma", "bmi1", "bmi2", "f16c", "movbe", "popcnt"]
    return haswell.isSubset(of: flags) ? ["-target-cpu", "haswell"] : []
}()

/// Physarum Live: an audio-reactive Physarum visualiser.
/// Module rules (DESIGN.md): Engine is pure Swift; C libraries sit behind
/// system-library targets used only by AudioReactive and LiveApp.
let package = Package(
    name: "PhysarumLive",
    products: [
        .executable(name: "physarum", targets: ["LiveApp"]),
        .library(name: "Engine", targets: ["Engine"]),
        .library(name: "AudioReactive", targets: ["AudioReactive"]),
    ],
    targets: [
        // C libraries (Debian packages), one system-library target each.
        .systemLibrary(name: "CPulse", pkgConfig: "libpulse-simple",
                       providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f",
                       providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2",
                       providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CImGui", pkgConfig: "imgui",
                       providers: [.apt(["libimgui-dev"])]),
        .target(
            name: "ImGuiShim",
            dependencies: ["CImGui", "CSDL2"],
            linkerSettings: [
                .linkedLibrary("GL"), .linkedLibrary("stdc++"), .linkedLibrary("m"),
            ]
        ),

        // Swift modules.
        .target(
            name: "Engine",
            swiftSettings: [.unsafeFlags(engineSwiftFlags)],
            linkerSettings: [.linkedLibrary("m")]
        ),
        .target(
            name: "AudioReactive",
            dependencies: ["Engine", "CPulse", "CFFTW", "CSndfile"],
            linkerSettings: [.linkedLibrary("m")]
        ),
        .executableTarget(
            name: "LiveApp",
            dependencies: ["Engine", "AudioReactive", "CSDL2", "CPNG", "ImGuiShim"],
            linkerSettings: [.linkedLibrary("m")]
        ),

        // Tests. TestSupport: helpers and data shared by the test targets
        // (the config bad-input corpus, a private PulseAudio daemon).
        .target(name: "TestSupport", dependencies: ["AudioReactive"], path: "Tests/TestSupport"),
        .testTarget(name: "EngineTests", dependencies: ["Engine"]),
        .testTarget(name: "AudioReactiveTests", dependencies: ["AudioReactive", "Engine", "CPulse", "CFFTW", "CSndfile", "TestSupport"]),
        .testTarget(name: "LiveAppTests", dependencies: ["LiveApp", "Engine", "AudioReactive", "CSDL2", "CPNG", "ImGuiShim", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
