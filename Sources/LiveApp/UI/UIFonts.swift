import Foundation
import ImGuiShim

/// Loads DejaVu Sans (fonts-dejavu-core) as a TTF so the UI scales crisply;
/// falls back to ImGui's built-in 13 px bitmap font with a notice.
enum UIFonts {
    static let defaultPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// Base pixel size at UI scale 1.
    static let baseSize: Float = 16

    /// Adds the UI font at `scale` to the current ImGui context; returns a
    /// notice text when the TTF is missing.
    static func load(scale: Double) -> String? {
        let path = ProcessInfo.processInfo.environment["PHYSARUM_UI_FONT"] ?? defaultPath
        if ig_add_font_ttf(path, baseSize * Float(scale)) { return nil }
        return "UI font \(path) not found (install fonts-dejavu-core); using the small built-in font"
    }
}
