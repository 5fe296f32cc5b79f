import CX11
import LiveCore

/// The X server's resource database (`RESOURCE_MANAGER`), read once at
/// start for the desktop's HiDPI scale. nil without an X display.
enum XResources {
    static func desktopScale() -> Double? {
        guard let display = XOpenDisplay(nil) else { return nil }
        defer { XCloseDisplay(display) }
        guard let text = XResourceManagerString(display) else { return nil }
        return DesktopScale.fromXResources(String(cString: text))
    }
}
