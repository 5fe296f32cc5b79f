import AudioReactive
import Foundation
import Storage

/// A documented OSC layout for a tablet (`configs/osc/tablet-layout.json`):
/// pages of faders, toggles and buttons, each sending `/physarum/<target>`
/// (`ControlTarget` ids, plus `tempo`) in the range given. The app sends
/// every value back (`OSCStateFeedback`) so the faders follow.
public struct OSCLayout: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable { case fader, toggle, button }

    public struct Control: Equatable, Sendable {
        public var label: String
        /// A `ControlTarget` id, or `tempo`.
        public var target: String
        public var kind: Kind
        public var min: Double
        public var max: Double
        /// The OSC address the control sends and the app answers on.
        public var address: String { OSCAddressSpace.prefix + target }
    }

    public struct Page: Equatable, Sendable {
        public var name: String
        public var controls: [Control]
    }

    public var name: String
    public var pages: [Page]

    public var controls: [Control] { pages.flatMap(\.controls) }

    /// The shipped layout's place under `configs/`.
    public static let shippedPath = "osc/tablet-layout.json"

    /// Reads a layout strictly (`FILE:LINE:COL: path: reason`): targets must be ones the address space takes.
    public static func decode(_ data: Data, file: String) throws -> OSCLayout {
        let root = try RuntimeFailure.document(data, limit: 1 << 20, file: file)
        let d = JSONDiagnostics(file: file)
        guard var r = d.object(root, at: .root) else { throw RuntimeFailure(d.errors.first?.description ?? "\(file): not an object") }
        _ = r.int("format", required: true, in: 1...1)
        var layout = OSCLayout(name: r.string("name", required: true, maxLength: 100) ?? "", pages: [])
        _ = r.string("summary", maxLength: 2000)
        for (i, p) in (r.array("pages", required: true, maxCount: 32) ?? []).enumerated() {
            let path = JSONPath.root.appending("pages").appending(i)
            guard var po = d.object(p, at: path) else { continue }
            var page = Page(name: po.string("name", required: true, maxLength: 100) ?? "", controls: [])
            for (j, c) in (po.array("controls", required: true, maxCount: 128) ?? []).enumerated() {
                let cp = path.appending("controls").appending(j)
                guard var co = d.object(c, at: cp) else { continue }
                let label = co.string("label", required: true, maxLength: 100) ?? ""
                let target = co.string("target", required: true, maxLength: 200) ?? ""
                let kind = co.choice("kind", as: Kind.self, required: true) ?? .button
                let lo = co.number("min") ?? 0, hi = co.number("max") ?? 1
                if target != "tempo" && ControlTarget(id: target) == nil {
                    d.error("unknown target '\(target)'", at: cp.appending("target"), position: co.node.position)
                }
                co.rejectUnknown()
                page.controls.append(Control(label: label, target: target, kind: kind, min: lo, max: hi))
            }
            po.rejectUnknown()
            layout.pages.append(page)
        }
        r.rejectUnknown()
        if let e = d.errors.first { throw RuntimeFailure(e.description) }
        return layout
    }
}

/// The app's state for a tablet, as OSC messages: each layout control's
/// value on its own address (a parameter in its own units, a route's depth
/// −2…2, a switch 1/0, the tempo in BPM), and the loaded preset's name and
/// the set list's line on `/physarum/status/preset` and `…/setlist`. Only
/// what changed since the last call is sent, except after `resendAll`.
/// Pure; the frame owns it.
public struct OSCStateFeedback: Equatable, Sendable {
    public let layout: OSCLayout
    private var last: [String: OSCArgument] = [:]

    public init(layout: OSCLayout) { self.layout = layout }

    /// Sends every value on the next call (a tablet that connected late).
    public mutating func resendAll() { last.removeAll() }

    /// The messages for the state now (those that changed).
    public mutating func messages(model: AppModel, tempo: TempoReading, setListLine: String) -> [OSCMessage] {
        var out: [OSCMessage] = []
        func put(_ address: String, _ v: OSCArgument) {
            guard last[address] != v else { return }
            last[address] = v
            out.append(OSCMessage(address, [v]))
        }
        for c in layout.controls where c.kind != .button {
            if c.target == "tempo" {
                if tempo.bpm > 0 { put(c.address, .float(Float(tempo.bpm))) }
                continue
            }
            guard let t = ControlTarget(id: c.target), let u = t.value01(in: model) else { continue }
            switch t {
            case .param(let k): put(c.address, .float(Float(k.spec.from01(u))))
            case .routeDepth: put(c.address, .float(Float(Route.depthRange.lowerBound + u * (Route.depthRange.upperBound - Route.depthRange.lowerBound))))
            default: put(c.address, .float(Float(u)))
            }
        }
        put(OSCAddressSpace.prefix + "status/preset", .string(model.currentPreset?.name ?? ""))
        put(OSCAddressSpace.prefix + "status/setlist", .string(setListLine))
        return out
    }
}
