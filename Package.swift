// swift-tools-version: 6.2
import Foundation
import PackageDescription

/// The engine's hot loops are written for 8-wide SIMD and are compiled for the
/// CPU of the machine that builds them (`-target-cpu native`; scripts/run and
/// scripts/test build where they run). Measured on the 2-core Xeon (Sapphire
/// Rapids) these machines have: AVX2 + FMA gave 2-3x over baseline x86-64, and
/// the native AVX-512 tuning a further 1.2x on the agent pass, with
/// bit-identical results (Swift does no FMA contraction). Set
/// PHYSARUM_PORTABLE=1 to build a baseline x86-64 binary to copy elsewhere, or
/// PHYSARUM_TARGET_CPU=NAME (an LLVM CPU name) to pick one.
let engineSwiftFlags: [String] = {
    let env = ProcessInfo.processInfo.environment
    if let cpu = env["PHYSARUM_TARGET_CPU"] { return ["-target-cpu", cpu] }
    #if arch(x86_64)
    return env["PHYSARUM_PORTABLE"] == nil ? ["-target-cpu", "native"] : []
    #else
    return []
    #endif
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
        // OpenGL 4.3 core entry points for the GPU backend (libGL from glvnd).
        .systemLibrary(name: "CGL", pkgConfig: "gl",
                       providers: [.apt(["libgl-dev"])]),
        // DNS-SD (announcing hosts, finding them) through the avahi-daemon.
        .systemLibrary(name: "CAvahi", pkgConfig: "avahi-client",
                       providers: [.apt(["libavahi-client-dev"])]),
        // Xlib: the desktop's HiDPI scale (Xft.dpi), which SDL 2 does not report on X11.
        .systemLibrary(name: "CX11", pkgConfig: "x11",
                       providers: [.apt(["libx11-dev"])]),
        // Spoken feedback through speech-dispatcher.
        .systemLibrary(name: "CSpeechd", pkgConfig: "speech-dispatcher",
                       providers: [.apt(["libspeechd-dev"])]),
        // Live control: MIDI (RtMidi for the ALSA sequencer, libjack for JACK,
        // both behind the MidiShim C++ target) and OSC (liblo).
        .systemLibrary(name: "CRtMidi", pkgConfig: "rtmidi",
                       providers: [.apt(["librtmidi-dev", "libjack-jackd2-dev", "libasound2-dev"])]),
        .systemLibrary(name: "CLiblo", pkgConfig: "liblo",
                       providers: [.apt(["liblo-dev"])]),
        // The picture as a PipeWire camera node (LiveApp/VideoOut/PipeWireSource.swift).
        .systemLibrary(name: "CPipeWire", pkgConfig: "libpipewire-0.3",
                       providers: [.apt(["libpipewire-0.3-dev"])]),
        .systemLibrary(name: "CImGui", pkgConfig: "imgui",
                       providers: [.apt(["libimgui-dev"])]),
        // MidiShim: RtMidi's C++ API (every RtMidiError caught and its text
        // copied), one JACK client through libjack, the libraries' messages
        // routed to one log function; an `extern "C"` surface.
        .target(
            name: "MidiShim",
            dependencies: ["CRtMidi"],
            linkerSettings: [.linkedLibrary("jack"), .linkedLibrary("asound"), .linkedLibrary("stdc++")]
        ),
        // LinkShim: Ableton Link (Debian ableton-link-dev: header-only C++
        // over standalone asio, libasio-dev; GPL-2.0-or-later) behind an
        // `extern "C"` surface.
        .target(
            name: "LinkShim",
            cxxSettings: [.define("LINK_PLATFORM_LINUX", to: "1")],
            linkerSettings: [.linkedLibrary("stdc++"), .linkedLibrary("pthread")]
        ),
        .target(
            name: "ImGuiShim",
            dependencies: ["CImGui", "CSDL2"],
            linkerSettings: [
                .linkedLibrary("GL"), .linkedLibrary("stdc++"), .linkedLibrary("m"),
            ]
        ),

        // Stops the build when Storage, Engine or LiveCore imports a C module
        // (SwiftPM's own import check does not cover system-library modules).
        .plugin(name: "ModuleRules", capability: .buildTool()),

        // Swift modules.
        // Storage: strict JSON reading/writing, safe file reads, atomic
        // writes, the configs/ and XDG folder lookup (no C, no engine).
        .target(name: "Storage", plugins: ["ModuleRules"]),
        .target(
            name: "Engine",
            dependencies: ["Storage"],
            swiftSettings: [.unsafeFlags(engineSwiftFlags)],
            linkerSettings: [.linkedLibrary("m")],
            plugins: ["ModuleRules"]
        ),
        // GLEngine: the GPU backend (OpenGL 4.3 compute; shaders in
        // configs/shaders). Engine stays pure Swift.
        .target(
            name: "GLEngine",
            dependencies: ["Engine", "Storage", "CGL"]
        ),
        .target(
            name: "AudioReactive",
            dependencies: ["Engine", "Storage", "CPulse", "CFFTW", "CSndfile"],
            linkerSettings: [.linkedLibrary("m")]
        ),
        // LiveCore: the app's logic without C — models, actions and effects,
        // library, auto-cycle, governor, session, remote protocol and state
        // machines, and the one frame pipeline. Depends on Engine and
        // AudioReactive (and Storage); never on a C module.
        .target(
            name: "LiveCore",
            dependencies: ["Engine", "AudioReactive", "Storage"],
            plugins: ["ModuleRules"]
        ),
        .executableTarget(
            name: "LiveApp",
            dependencies: ["LiveCore", "Engine", "AudioReactive", "Storage", "CSDL2", "CPNG", "ImGuiShim", "GLEngine", "CAvahi", "CSpeechd", "MidiShim", "LinkShim", "CLiblo", "CX11", "CPipeWire"],
            linkerSettings: [.linkedLibrary("m")]
        ),

        // Tests. TestSupport: helpers and data shared by the test targets
        // (the config bad-input corpus, a private PulseAudio daemon).
        .target(name: "TestSupport", dependencies: ["AudioReactive", "LiveCore", "Engine"], path: "Tests/TestSupport"),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "Engine"]),
        .testTarget(name: "EngineTests", dependencies: ["Engine", "Storage"]),
        .testTarget(name: "AudioReactiveTests", dependencies: ["AudioReactive", "Engine", "Storage", "CFFTW", "CSndfile", "TestSupport"]),
        .testTarget(name: "LiveCoreTests", dependencies: ["LiveCore", "Engine", "AudioReactive", "Storage", "TestSupport"]),
        // AppTestSupport: helpers of the UI tests in both test targets (headless
        // ImGui frames, the keyboard walk); no app types in its API.
        .target(name: "AppTestSupport", dependencies: ["ImGuiShim"], path: "Tests/AppTestSupport"),
        // Unit tests: no display, no sound server, no binary launched.
        .testTarget(name: "LiveAppTests", dependencies: ["LiveApp", "LiveCore", "Engine", "AudioReactive", "Storage", "CSDL2", "CPNG", "ImGuiShim", "MidiShim", "LinkShim", "CLiblo", "TestSupport", "AppTestSupport"]),
        // Integration tests: the `physarum` binary and the real components
        // (PulseAudio, Xvfb, JACK, Avahi, speech-dispatcher, ffmpeg), started
        // by scripts/test; a test whose tool is missing is skipped with its reason.
        .testTarget(name: "IntegrationTests", dependencies: ["LiveApp", "LiveCore", "Engine", "AudioReactive", "Storage", "CSDL2", "CPNG", "ImGuiShim", "MidiShim", "LinkShim", "CLiblo", "CPulse", "CFFTW", "CSndfile", "TestSupport", "AppTestSupport"]),
        .testTarget(name: "GLEngineTests", dependencies: ["GLEngine", "Engine", "Storage", "CSDL2"]),
    ],
    swiftLanguageModes: [.v6]
)
