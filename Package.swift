// swift-tools-version: 6.2
import PackageDescription

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

        // Tests.
        .testTarget(name: "EngineTests", dependencies: ["Engine"]),
        .testTarget(name: "AudioReactiveTests", dependencies: ["AudioReactive", "Engine", "CPulse", "CFFTW", "CSndfile"]),
        .testTarget(name: "LiveAppTests", dependencies: ["LiveApp", "Engine", "AudioReactive", "CSDL2", "CPNG", "ImGuiShim"]),
    ],
    swiftLanguageModes: [.v6]
)
