import Foundation

/// The UI scale a desktop asks for. On X11 a HiDPI desktop (GNOME, KDE,
/// `xrdb`) sets `Xft.dpi` in the X resources (192 for 2×); the window and
/// its drawable stay the same size there, so SDL reports no scale and the
/// panels must be drawn larger. Pure: the X resources come as text.
public enum DesktopScale {
    /// The scale for an X resource database's text: `Xft.dpi` ÷ 96, to the
    /// nearest 0.25 within 1…3; nil when `Xft.dpi` is not set or not a number.
    public static func fromXResources(_ text: String) -> Double? {
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "Xft.dpi",
                  let dpi = Double(parts[1].trimmingCharacters(in: .whitespaces)), dpi.isFinite, dpi > 0 else { continue }
            return min(3, max(1, (dpi / 96 * 4).rounded() / 4))
        }
        return nil
    }
}
