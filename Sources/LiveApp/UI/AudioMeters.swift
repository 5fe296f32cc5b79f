import AudioReactive
import Foundation
import ImGuiShim
import LiveCore

/// What the audio panel shows live (read by the shell each frame).
struct AudioLiveView {
    /// The analysis meters (nil when there is no analysis).
    var meters: AnalysisMeters?
    /// Capture health: latency, dropped samples (nil without capture).
    var capture: CaptureStatus?
    /// "live: …", "DEMO …", "no capture: …", "audio off".
    var status: String
    /// Per route: its contribution right now (target's 0…1 space).
    var activity: [Double]
    /// Whether the modulator's master switch is on.
    var enabled: Bool
    /// The sound → picture latency readout (capture + analysis + frame + offset), when known.
    var latency: String? = nil
}

/// The spectrum and the band meters of the audio panel, drawn with the window
/// draw list. Main thread only (ImGui).
enum AudioMeters {
    static let dbFloor: Float = -90

    /// Horizontal position 0…1 of `hz` on the 20 Hz…20 kHz log axis.
    static func logX(_ hz: Double) -> Float { Float(log(max(hz, 1) / 20) / log(1000)) }

    /// 0…1 position of `db` on the −90…0 dBFS scale.
    static func dbX(_ db: Float) -> Float { min(max((db - dbFloor) / -dbFloor, 0), 1) }

    /// The log-frequency spectrum with the band edges drawn and named (a
    /// band's name only where it fits between its edges), the −60/−30 dB
    /// lines and the 100 Hz / 1 kHz / 10 kHz marks. Returns its rectangle.
    static func spectrum(_ meters: AnalysisMeters?, edges: [Double], width: Float, height: Float) -> UI.Rect {
        let theme = UIStyle.theme
        let dim = UIStyle.word(theme.text.dim), accent = UIStyle.word(theme.text.accent)
        var x0: Float = 0, y0: Float = 0
        ig_get_cursor_screen_pos(&x0, &y0)
        ig_dummy(width, height)
        let r = UI.Rect(x0: x0, y0: y0, x1: x0 + width, y1: y0 + height)
        let lh = ig_get_text_line_height()
        ig_draw_rect_filled(r.x0, r.y0, r.x1, r.y1, UIStyle.word(theme.surface.meterTrack), 3)
        func y(_ db: Float) -> Float { r.y1 - dbX(db) * height }
        // The level lines' labels at the left, just under their lines (band names run along the top,
        // frequencies along the bottom).
        for db: Float in [-60, -30] {
            ig_draw_line(r.x0, y(db), r.x1, y(db), UIStyle.word(theme.surface.border), 1)
            let label = "\(Int(db)) dB", w = ig_calc_text_width(label)
            if w + 4 <= width, y(db) + lh + 1 <= r.y1 - lh { ig_probe_text_in(r.x0 + 2, y(db) + 1, dim, label, r.x0, r.x1) }
        }
        // Band edges and names.
        let names = AudioSourceID.allCases.filter { $0 != .full }
        for (i, e) in edges.enumerated() {
            let x = r.x0 + logX(e) * width
            ig_draw_line(x, r.y0, x, r.y1, UIStyle.word(theme.surface.bandEdge), 1)
            if i + 1 < edges.count, i < names.count {
                let left = x, right = r.x0 + logX(edges[i + 1]) * width
                let label = short(names[i]), w = ig_calc_text_width(label)
                let mid = r.x0 + logX((e * edges[i + 1]).squareRoot()) * width
                let lx = min(max(mid - w / 2, left + 1), right - w - 1)
                if w + 2 <= right - left { ig_probe_text_in(lx, r.y0 + 2, accent, label, left, right) }
            }
        }
        var lastRight = r.x0
        for hz in [100.0, 1000, 10000] {
            let x = r.x0 + logX(hz) * width
            let label = hz >= 1000 ? "\(Int(hz / 1000))k" : "\(Int(hz))", w = ig_calc_text_width(label)
            guard x + 2 + w <= r.x1, x + 2 >= lastRight else { continue }
            ig_probe_text_in(x + 2, r.y1 - lh - 1, dim, label, x + 2, r.x1)
            lastRight = x + 2 + w + 4
        }
        guard let s = meters?.spectrum else { return r }
        var xy = [Float](repeating: 0, count: SpectrumSnapshot.count * 2)
        for i in 0..<SpectrumSnapshot.count {
            xy[2 * i] = r.x0 + logX(SpectrumSnapshot.frequency(i)) * width
            xy[2 * i + 1] = y(s.dbfs[i])
        }
        ig_draw_polyline(xy, Int32(SpectrumSnapshot.count), UIStyle.word(theme.surface.spectrum), 1.5)
        return r
    }

    /// The columns of a band meter row for a row `width` wide at the current
    /// font: name, dBFS bar, level bar, gate state, transient flash, auto-gain.
    /// Texts get the width of their longest value; the bars share the rest.
    /// When the bars would get less than a third of the row, the auto-gain and
    /// then the gate words are left out (the tooltip and the level bar's
    /// colour still tell them).
    struct Columns {
        var name: (x: Float, w: Float), db: (x: Float, w: Float), level: (x: Float, w: Float)
        var gate: (x: Float, w: Float)?, flash: (x: Float, w: Float), gain: (x: Float, w: Float)?
    }

    static func columns(width: Float, rowHeight: Float) -> Columns {
        let gap = ig_style_item_spacing_x()
        let name = AudioSourceID.allCases.map { ig_calc_text_width(short($0)) }.max() ?? 0
        let gate = [GateState.open, .hold, .closed].map { ig_calc_text_width(gateName($0)) }.max() ?? 0
        let gain = ig_calc_text_width("+00 dB"), flash = rowHeight - 6
        var showGain = true, showGate = true
        func bars() -> Float { width - name - flash - gap * 3 - (showGate ? gate + gap : 0) - (showGain ? gain + gap : 0) }
        if bars() < width / 3 { showGain = false }
        if bars() < width / 3 { showGate = false }
        let b = max(0, bars())
        var x: Float = 0
        func take(_ w: Float) -> (x: Float, w: Float) {
            defer { x += w + gap }
            return (x, w)
        }
        let n = take(name), db = take(b * 0.6), level = take(b * 0.4)
        let g = showGate ? take(gate) : nil
        let f = take(flash)
        let a = showGain ? take(gain) : nil
        return Columns(name: n, db: db, level: level, gate: g, flash: f, gain: a)
    }

    /// One row per source: dBFS bar with the noise-floor tick, level bar
    /// coloured by gate state, gate state, transient flash, auto-gain.
    /// Records "meter:<source>" rectangles into `rects`.
    static func bands(_ meters: AnalysisMeters?, width: Float, rects: inout [String: UI.Rect]) {
        let theme = UIStyle.theme
        let rowH = ig_get_text_line_height() + 4
        let c = columns(width: width, rowHeight: rowH)
        let track = UIStyle.word(theme.surface.meterTrack), text = UIStyle.word(theme.text.normal)
        for id in AudioSourceID.allCases {
            let m = meters?[id] ?? BandMeter()
            var x0: Float = 0, y0: Float = 0
            ig_get_cursor_screen_pos(&x0, &y0)
            ig_dummy(width, rowH)
            let row = UI.Rect(x0: x0, y0: y0, x1: x0 + width, y1: y0 + rowH)
            rects["meter:" + id.rawValue] = row
            if ig_is_item_hovered(0) {
                UI.tooltip("\(id.rawValue): " + String(format: "%.1f dBFS, noise floor %.1f dBFS", m.dbfs, m.noiseFloorDb)
                    + ", gate \(gateName(m.gate)), " + String(format: "level %.2f, transient %.2f, auto-gain %+.1f dB", m.level, m.transient, m.autoGainDb))
            }
            ig_probe_text_in(x0 + c.name.x, y0 + 2, text, short(id), x0 + c.name.x, x0 + c.name.x + c.name.w)
            let by0 = y0 + 3, by1 = y0 + rowH - 3
            // dBFS bar (−90…0) with the noise floor tick.
            let bx = x0 + c.db.x, bw = c.db.w
            ig_draw_rect_filled(bx, by0, bx + bw, by1, track, 2)
            ig_draw_rect_filled(bx, by0, bx + bw * dbX(m.dbfs), by1, UIStyle.word(theme.surface.meterFill), 2)
            let nf = bx + bw * dbX(m.noiseFloorDb)
            ig_draw_line(nf, by0 - 2, nf, by1 + 2, UIStyle.word(theme.text.normal), 2)
            // Level bar, coloured by gate state.
            let lx = x0 + c.level.x, lw = c.level.w
            let gc = UIStyle.word(gateColor(m.gate))
            ig_draw_rect_filled(lx, by0, lx + lw, by1, track, 2)
            ig_draw_rect_filled(lx, by0, lx + lw * min(max(m.level, 0), 1), by1, gc, 2)
            // Gate state, transient flash, auto-gain.
            if let g = c.gate { ig_probe_text_in(x0 + g.x, y0 + 2, gc, gateName(m.gate), x0 + g.x, x0 + g.x + g.w) }
            let t = min(max(m.transient, 0), 1), tx = x0 + c.flash.x
            ig_draw_rect_filled(tx, by0, tx + c.flash.w, by1, UIStyle.word(theme.text.accent.alpha(Double(0.15 + 0.85 * t))), 2)
            if let a = c.gain {
                let s = String(format: "%+.0f dB", m.autoGainDb)
                ig_probe_text_in(x0 + a.x + a.w - ig_calc_text_width(s), y0 + 2, text, s, x0 + a.x, x0 + a.x + a.w)
            }
        }
    }

    static func gateName(_ g: GateState) -> String {
        switch g {
        case .open: "open"
        case .hold: "hold"
        case .closed: "closed"
        }
    }

    /// The gate state's colour (a text colour of the theme: its word is drawn in it).
    static func gateColor(_ g: GateState) -> ThemeColor {
        switch g {
        case .open: UIStyle.theme.text.good
        case .hold: UIStyle.theme.text.warning
        case .closed: UIStyle.theme.text.dim
        }
    }

    static func short(_ id: AudioSourceID) -> String {
        switch id {
        case .sub: "sub"
        case .bass: "bass"
        case .lowMid: "lowM"
        case .mid: "mid"
        case .highMid: "hiM"
        case .presence: "pres"
        case .brilliance: "brill"
        case .full: "full"
        }
    }

    /// A centred bar for a route's activity (−1…1 of the target's range), with its value.
    static func activity(_ a: Double, width: Float) -> UI.Rect {
        var x0: Float = 0, y0: Float = 0
        ig_get_cursor_screen_pos(&x0, &y0)
        let h = ig_get_frame_height()
        ig_dummy(width, h)
        let r = UI.Rect(x0: x0, y0: y0 + 3, x1: x0 + width, y1: y0 + h - 3)
        let theme = UIStyle.theme
        ig_draw_rect_filled(r.x0, r.y0, r.x1, r.y1, UIStyle.word(theme.surface.meterTrack), 2)
        let mid = (r.x0 + r.x1) / 2
        let v = Float(min(max(a, -1), 1)) * (width / 2)
        ig_draw_rect_filled(min(mid, mid + v), r.y0, max(mid, mid + v), r.y1, UIStyle.word(theme.text.accent), 1)
        ig_draw_line(mid, r.y0 - 2, mid, r.y1 + 2, UIStyle.word(theme.surface.border), 1)
        return r
    }
}
