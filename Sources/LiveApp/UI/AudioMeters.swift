import AudioReactive
import Foundation
import ImGuiShim

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

    /// The log-frequency spectrum with the band edges drawn and named.
    /// Returns its rectangle.
    static func spectrum(_ meters: AnalysisMeters?, edges: [Double], width: Float, height: Float) -> UI.Rect {
        var x0: Float = 0, y0: Float = 0
        ig_get_cursor_screen_pos(&x0, &y0)
        ig_dummy(width, height)
        let r = UI.Rect(x0: x0, y0: y0, x1: x0 + width, y1: y0 + height)
        ig_draw_rect_filled(r.x0, r.y0, r.x1, r.y1, UI.color(0.06, 0.07, 0.09), 3)
        func y(_ db: Float) -> Float { r.y1 - dbX(db) * height }
        for db: Float in [-60, -30] {
            ig_draw_line(r.x0, y(db), r.x1, y(db), UI.color(1, 1, 1, 0.08), 1)
            ig_draw_text(r.x1 - 44, y(db) - 14, UI.color(1, 1, 1, 0.3), "\(Int(db)) dB")
        }
        // Band edges and names.
        let names = AudioSourceID.allCases.filter { $0 != .full }
        for (i, e) in edges.enumerated() {
            let x = r.x0 + logX(e) * width
            ig_draw_line(x, r.y0, x, r.y1, UI.color(1, 0.8, 0.3, 0.35), 1)
            if i + 1 < edges.count, i < names.count {
                let mid = r.x0 + logX((e * edges[i + 1]).squareRoot()) * width
                let label = short(names[i])
                ig_draw_text(mid - ig_calc_text_width(label) / 2, r.y0 + 2, UI.color(1, 0.85, 0.5, 0.7), label)
            }
        }
        for hz in [100.0, 1000, 10000] {
            let x = r.x0 + logX(hz) * width
            let label = hz >= 1000 ? "\(Int(hz / 1000))k" : "\(Int(hz))"
            ig_draw_text(x + 2, r.y1 - 15, UI.color(1, 1, 1, 0.3), label)
        }
        guard let s = meters?.spectrum else { return r }
        var xy = [Float](repeating: 0, count: SpectrumSnapshot.count * 2)
        for i in 0..<SpectrumSnapshot.count {
            xy[2 * i] = r.x0 + logX(SpectrumSnapshot.frequency(i)) * width
            xy[2 * i + 1] = y(s.dbfs[i])
        }
        ig_draw_polyline(xy, Int32(SpectrumSnapshot.count), UI.color(0.45, 0.85, 1), 1.5)
        return r
    }

    /// One row per source: dBFS bar with the noise-floor tick, level bar
    /// coloured by gate state, gate state, transient flash, auto-gain.
    /// Records "meter:<source>" rectangles into `rects`.
    static func bands(_ meters: AnalysisMeters?, width: Float, rects: inout [String: UI.Rect]) {
        let rowH = ig_get_text_line_height() + 4
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
            let text = UI.color(0.85, 0.87, 0.9)
            ig_draw_text(x0, y0 + 2, text, id.rawValue)
            // dBFS bar (−90…0) with the noise floor tick.
            let bx = x0 + 74, bw = width * 0.30, by0 = y0 + 3, by1 = y0 + rowH - 3
            ig_draw_rect_filled(bx, by0, bx + bw, by1, UI.color(1, 1, 1, 0.07), 2)
            ig_draw_rect_filled(bx, by0, bx + bw * dbX(m.dbfs), by1, UI.color(0.35, 0.55, 0.8, 0.9), 2)
            let nf = bx + bw * dbX(m.noiseFloorDb)
            ig_draw_line(nf, by0 - 2, nf, by1 + 2, UI.color(1, 1, 1, 0.9), 2)
            // Level bar, coloured by gate state.
            let lx = bx + bw + 8, lw = width * 0.2
            let (cr, cg, cb) = gateColor(m.gate)
            ig_draw_rect_filled(lx, by0, lx + lw, by1, UI.color(1, 1, 1, 0.07), 2)
            ig_draw_rect_filled(lx, by0, lx + lw * min(max(m.level, 0), 1), by1, UI.color(cr, cg, cb, 0.95), 2)
            // Gate state, transient flash, auto-gain.
            let gx = lx + lw + 8
            ig_draw_text(gx, y0 + 2, UI.color(cr, cg, cb), gateName(m.gate))
            let tx = gx + 50
            let t = min(max(m.transient, 0), 1)
            ig_draw_rect_filled(tx, by0, tx + (by1 - by0), by1, UI.color(1, 0.55, 0.1, 0.15 + 0.85 * t), 2)
            ig_draw_text(tx + (by1 - by0) + 8, y0 + 2, text, String(format: "%+.0f dB", m.autoGainDb))
        }
    }

    static func gateName(_ g: GateState) -> String {
        switch g {
        case .open: "open"
        case .hold: "hold"
        case .closed: "closed"
        }
    }

    static func gateColor(_ g: GateState) -> (Float, Float, Float) {
        switch g {
        case .open: (0.3, 0.85, 0.4)
        case .hold: (1, 0.75, 0.25)
        case .closed: (0.5, 0.5, 0.55)
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
        ig_draw_rect_filled(r.x0, r.y0, r.x1, r.y1, UI.color(1, 1, 1, 0.07), 2)
        let mid = (r.x0 + r.x1) / 2
        let v = Float(min(max(a, -1), 1)) * (width / 2)
        ig_draw_rect_filled(min(mid, mid + v), r.y0, max(mid, mid + v), r.y1, UI.color(0.95, 0.6, 0.2, 0.95), 1)
        ig_draw_line(mid, r.y0 - 2, mid, r.y1 + 2, UI.color(1, 1, 1, 0.5), 1)
        return r
    }
}
