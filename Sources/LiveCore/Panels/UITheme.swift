import Foundation

/// An sRGB colour with alpha, each component 0…1 (as the panels draw it).
public struct ThemeColor: Equatable, Sendable {
    public var r: Double, g: Double, b: Double, a: Double

    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// `#rrggbb` (alpha 1).
    public init(hex: UInt32) {
        self.init(Double(hex >> 16 & 0xff) / 255, Double(hex >> 8 & 0xff) / 255, Double(hex & 0xff) / 255)
    }

    public static let black = ThemeColor(0, 0, 0)
    public static let white = ThemeColor(1, 1, 1)

    /// The same colour with another alpha.
    public func alpha(_ a: Double) -> ThemeColor { ThemeColor(r, g, b, a) }

    /// This colour drawn over an opaque `below` ("over" on the encoded sRGB
    /// values, as the panels' renderer blends: no linear-light framebuffer).
    public func over(_ below: ThemeColor) -> ThemeColor {
        ThemeColor(r * a + below.r * (1 - a), g * a + below.g * (1 - a), b * a + below.b * (1 - a))
    }

    /// WCAG 2 relative luminance: each channel linearised from sRGB
    /// (c ≤ 0.04045 ? c/12.92 : ((c+0.055)/1.055)^2.4), then
    /// 0.2126 R + 0.7152 G + 0.0722 B. Alpha is ignored (composite first).
    public var relativeLuminance: Double {
        func lin(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    }

    /// WCAG 2 contrast ratio (L1 + 0.05) / (L2 + 0.05), L1 the lighter; 1…21.
    public func contrast(with other: ThemeColor) -> Double {
        let l1 = relativeLuminance, l2 = other.relativeLuminance
        return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
    }
}

/// The look of the panels: colours by role and the sizes of hit targets.
/// Two themes ship: `.standard` (neutral dark, blue accents) and
/// `.darkRoom` (dim and warm, for a dark booth: no bright whites or blues,
/// larger frames and spacing). Every text colour meets WCAG AA (4.5:1)
/// against every background it is drawn on, the window background at the
/// lowest panel opacity over a black or a white picture included
/// (`textPairs`, checked by LiveCoreTests/UIThemeTests).
public struct UITheme: Equatable, Sendable {
    /// Which theme (its name in the session and the menu).
    public enum ID: String, CaseIterable, Equatable, Sendable {
        case standard
        case darkRoom = "dark-room"

        public var label: String {
            switch self {
            case .standard: "Default"
            case .darkRoom: "Dark room"
            }
        }

        public var theme: UITheme {
            switch self {
            case .standard: .standard
            case .darkRoom: .darkRoom
            }
        }
    }

    /// Colours for text.
    public struct Text: Equatable, Sendable {
        /// Labels and values.
        public var normal: ThemeColor
        /// Secondary lines: status, hints, empty-list notes.
        public var dim: ThemeColor
        /// Key names, highlighted words.
        public var accent: ThemeColor
        /// Connected, gate open, OK.
        public var good: ThemeColor
        public var warning: ThemeColor
        public var error: ThemeColor
        /// Info notices.
        public var info: ThemeColor
    }

    /// Colours of surfaces (opaque; the window background's alpha is the user's panel opacity).
    public struct Surface: Equatable, Sendable {
        public var window: ThemeColor
        public var popup: ThemeColor
        public var menuBar: ThemeColor
        public var title: ThemeColor
        public var titleActive: ThemeColor
        public var frame: ThemeColor
        public var frameHovered: ThemeColor
        public var frameActive: ThemeColor
        public var button: ThemeColor
        public var buttonHovered: ThemeColor
        public var buttonActive: ThemeColor
        /// Section headers, selected rows, menu items.
        public var header: ThemeColor
        public var headerHovered: ThemeColor
        public var headerActive: ThemeColor
        public var tab: ThemeColor
        public var tabActive: ThemeColor
        /// Borders, separators, scrollbar grabs, slider grabs, check marks, the focus frame.
        public var border: ThemeColor
        public var grab: ThemeColor
        public var grabActive: ThemeColor
        public var checkMark: ThemeColor
        public var navHighlight: ThemeColor
        /// Meter tracks and the spectrum's plot area.
        public var meterTrack: ThemeColor
        /// Meter fill and the spectrum line.
        public var meterFill: ThemeColor
        public var spectrum: ThemeColor
        public var bandEdge: ThemeColor
    }

    /// Sizes at UI scale 1 (pixels); the shell multiplies them by the scale.
    public struct Metrics: Equatable, Sendable {
        public var framePadding: (x: Double, y: Double)
        public var itemSpacing: (x: Double, y: Double)
        public var itemInnerSpacing: Double
        public var grabMinSize: Double
        public var scrollbarSize: Double
        public var rounding: Double

        public static func == (a: Metrics, b: Metrics) -> Bool {
            a.framePadding == b.framePadding && a.itemSpacing == b.itemSpacing && a.itemInnerSpacing == b.itemInnerSpacing
                && a.grabMinSize == b.grabMinSize && a.scrollbarSize == b.scrollbarSize && a.rounding == b.rounding
        }
    }

    public var id: ID
    public var text: Text
    public var surface: Surface
    public var metrics: Metrics

    /// The panel background opacities a user may choose: at the lowest, text
    /// still meets 4.5:1 over a white picture.
    public static let opacityRange = 0.88...1.0
    public static let defaultOpacity = 1.0

    /// Every text colour with every surface it is drawn on, named for test
    /// messages: the window's own background at `opacity` over black and
    /// white pictures, and the opaque surfaces (buttons, frames, headers,
    /// menus, titles, tabs). Text drawn faded on purpose (a notice running
    /// out, a disabled button) is not listed: WCAG exempts inactive parts.
    public func textPairs(opacity: Double) -> [(name: String, text: ThemeColor, background: ThemeColor)] {
        let texts: [(String, ThemeColor)] = [("normal", text.normal), ("dim", text.dim), ("accent", text.accent), ("good", text.good),
                                             ("warning", text.warning), ("error", text.error), ("info", text.info)]
        let s = surface
        let panel: [(String, ThemeColor)] = [("window over black", s.window.alpha(opacity).over(.black)),
                                             ("window over white", s.window.alpha(opacity).over(.white)),
                                             ("meter track over the window", s.meterTrack.over(s.window.alpha(opacity).over(.white))),
                                             ("popup", s.popup), ("menu bar", s.menuBar), ("title", s.title),
                                             ("active title", s.titleActive)]
        // Labels and values drawn on controls are normal text.
        let controls: [(String, ThemeColor)] = [("frame", s.frame), ("hovered frame", s.frameHovered), ("active frame", s.frameActive),
                                                ("button", s.button), ("hovered button", s.buttonHovered), ("pressed button", s.buttonActive),
                                                ("header", s.header), ("hovered header", s.headerHovered), ("active header", s.headerActive),
                                                ("tab", s.tab), ("active tab", s.tabActive)]
        var out: [(String, ThemeColor, ThemeColor)] = []
        for (tn, t) in texts { for (bn, b) in panel { out.append(("\(id.rawValue): \(tn) text on \(bn)", t, b)) } }
        for (bn, b) in controls { out.append(("\(id.rawValue): normal text on \(bn)", text.normal, b)) }
        return out
    }

    /// Neutral dark panels, white text, blue controls.
    public static let standard = UITheme(
        id: .standard,
        text: Text(normal: ThemeColor(hex: 0xf0f0f0), dim: ThemeColor(hex: 0xa8a8b0), accent: ThemeColor(hex: 0xffcc59),
                   good: ThemeColor(hex: 0x7fdc8c), warning: ThemeColor(hex: 0xffc34d), error: ThemeColor(hex: 0xff8a7a),
                   info: ThemeColor(hex: 0xbfdfff)),
        surface: Surface(window: ThemeColor(hex: 0x101113), popup: ThemeColor(hex: 0x16171a), menuBar: ThemeColor(hex: 0x1c1d21),
                         title: ThemeColor(hex: 0x16181d), titleActive: ThemeColor(hex: 0x1f3150),
                         frame: ThemeColor(hex: 0x222a38), frameHovered: ThemeColor(hex: 0x2c3a52), frameActive: ThemeColor(hex: 0x34476a),
                         button: ThemeColor(hex: 0x23395c), buttonHovered: ThemeColor(hex: 0x2d4d80), buttonActive: ThemeColor(hex: 0x1e4c94),
                         header: ThemeColor(hex: 0x233a5e), headerHovered: ThemeColor(hex: 0x2b4a7a), headerActive: ThemeColor(hex: 0x2f5590),
                         tab: ThemeColor(hex: 0x1e2c44), tabActive: ThemeColor(hex: 0x2d4d80),
                         border: ThemeColor(hex: 0x4a4e5a), grab: ThemeColor(hex: 0x5a8fd8), grabActive: ThemeColor(hex: 0x7aaaf0),
                         checkMark: ThemeColor(hex: 0x8ab8ff), navHighlight: ThemeColor(hex: 0x8ab8ff),
                         meterTrack: ThemeColor(hex: 0x1d2026), meterFill: ThemeColor(hex: 0x5a8cd0), spectrum: ThemeColor(hex: 0x73d9ff),
                         bandEdge: ThemeColor(hex: 0x8a7440)),
        metrics: Metrics(framePadding: (4, 3), itemSpacing: (8, 4), itemInnerSpacing: 4, grabMinSize: 10, scrollbarSize: 14, rounding: 4))

    /// Dim and warm for a dark room: dark brown panels, amber text, no
    /// bright blue or white; frames, spacing and grabs larger (easier to hit
    /// by feel with a trackpad in the dark).
    public static let darkRoom = UITheme(
        id: .darkRoom,
        text: Text(normal: ThemeColor(hex: 0xd0a77a), dim: ThemeColor(hex: 0xb08a64), accent: ThemeColor(hex: 0xe0a040),
                   good: ThemeColor(hex: 0x9fb86a), warning: ThemeColor(hex: 0xe09a3a), error: ThemeColor(hex: 0xe8735a),
                   info: ThemeColor(hex: 0xc4a98a)),
        surface: Surface(window: ThemeColor(hex: 0x0c0806), popup: ThemeColor(hex: 0x120c08), menuBar: ThemeColor(hex: 0x140e0a),
                         title: ThemeColor(hex: 0x110b08), titleActive: ThemeColor(hex: 0x2a180c),
                         frame: ThemeColor(hex: 0x21150d), frameHovered: ThemeColor(hex: 0x2c1c10), frameActive: ThemeColor(hex: 0x382313),
                         button: ThemeColor(hex: 0x2a1a0e), buttonHovered: ThemeColor(hex: 0x3a2412), buttonActive: ThemeColor(hex: 0x472c15),
                         header: ThemeColor(hex: 0x2a1a0e), headerHovered: ThemeColor(hex: 0x3a2412), headerActive: ThemeColor(hex: 0x472c15),
                         tab: ThemeColor(hex: 0x1f140c), tabActive: ThemeColor(hex: 0x3a2412),
                         border: ThemeColor(hex: 0x4a3220), grab: ThemeColor(hex: 0x8a5a2c), grabActive: ThemeColor(hex: 0xb07434),
                         checkMark: ThemeColor(hex: 0xd08a3a), navHighlight: ThemeColor(hex: 0xc07a30),
                         meterTrack: ThemeColor(hex: 0x1a110a), meterFill: ThemeColor(hex: 0x9a6a30), spectrum: ThemeColor(hex: 0xc08840),
                         bandEdge: ThemeColor(hex: 0x6a4a28)),
        metrics: Metrics(framePadding: (7, 6), itemSpacing: (10, 7), itemInnerSpacing: 6, grabMinSize: 18, scrollbarSize: 20, rounding: 5))
}
