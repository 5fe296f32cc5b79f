import Engine
import Foundation
import LiveCore
import Storage

/// `physarum presets`: the factory preset catalog.
enum PresetsCommand: Subcommand {
    static let name = "presets"
    static let summary = "list the factory presets; render a contact sheet"
    static let help = """
    Usage: physarum presets list [--json]
           physarum presets contact-sheet --out FILE.png [--steps N] [--tile WxH]
                                          [--field WxH] [--columns C] [--seed S] [--threads N]

    list            every factory preset in configs/presets (id, name, blend mode,
                    tags); files that fail to load are reported on stderr and skipped.
                    --json prints one JSON object per line.
    contact-sheet   renders every preset (default 300 steps, 400x225 tiles from a
                    960x540 field, agents scaled to the field's area) into one PNG
                    with the names under the tiles, e.g.
                    physarum presets contact-sheet --out docs/presets.png

    The presets folder is found via PHYSARUM_CONFIG_DIR, else configs/ beside
    or above the executable, else configs/ in the current directory.
    """

    static func run(_ args: [String]) throws -> Int32 {
        guard let verb = args.first else { throw UsageError("expected `list` or `contact-sheet` (see --help)") }
        let rest = Array(args.dropFirst())
        switch verb {
        case "list": return try list(rest)
        case "contact-sheet": return try contactSheet(rest)
        default: throw UsageError("unknown presets action '\(verb)' (expected list or contact-sheet)")
        }
    }

    static func loadCatalog() throws -> PresetCatalog {
        let catalog = PresetCatalog.factory()
        if let notice = catalog.notice { throw RuntimeFailure(notice) }
        for p in catalog.problems { printError("physarum presets: skipped \(p.description)") }
        return catalog
    }

    static func list(_ args: [String]) throws -> Int32 {
        var r = ArgumentReader(args)
        let json = r.flag("--json")
        try r.finish()
        let catalog = try loadCatalog()
        for p in catalog.presets {
            if json {
                print(JSONNode.object([
                    ("id", .string(p.id)), ("name", .string(p.name)),
                    ("blendMode", .string(p.params.blendMode.rawValue)),
                    ("agents", .int(Int(p.params[.agents]))),
                    ("tags", .array(p.tags.map(JSONNode.string))),
                ]).text)
            } else {
                let id = p.id.padding(toLength: max(22, p.id.count + 1), withPad: " ", startingAt: 0)
                let nm = p.name.padding(toLength: max(22, p.name.count + 1), withPad: " ", startingAt: 0)
                let mode = p.params.blendMode.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
                print(id + nm + mode + p.tags.joined(separator: ", "))
            }
        }
        if !json { print("\n\(catalog.presets.count) presets in \(catalog.directory ?? "?")") }
        return 0
    }

    static func contactSheet(_ args: [String]) throws -> Int32 {
        var r = ArgumentReader(args)
        guard let out = try r.string("--out") else { throw UsageError("--out FILE.png is required") }
        var sheet = ContactSheet(presets: [])
        sheet.steps = try r.int("--steps", in: 1...100_000) ?? sheet.steps
        if let t = try r.size("--tile") { (sheet.tileWidth, sheet.tileHeight) = t }
        if let f = try r.size("--field") { (sheet.fieldWidth, sheet.fieldHeight) = f }
        sheet.columns = try r.int("--columns", in: 1...64) ?? sheet.columns
        sheet.seed = UInt64(try r.int("--seed", in: 0...Int.max) ?? 1)
        sheet.threads = try r.int("--threads", in: 1...64) ?? sheet.threads
        try r.finish()
        guard out.lowercased().hasSuffix(".png") else { throw UsageError("--out must name a .png file") }
        sheet.presets = try loadCatalog().presets
        guard !sheet.presets.isEmpty else { throw RuntimeFailure("no presets to render") }
        var progress = ProgressReporter(total: sheet.presets.count, label: "physarum presets contact-sheet", unit: "preset")
        let image = try sheet.render { progress.update($0) }
        let dir = (out as NSString).deletingLastPathComponent
        if !dir.isEmpty { try FrameSink.makeDirectory(dir) }
        try PNGCodec.write(image, to: out)
        printError("physarum presets: wrote \(out) (\(image.width)x\(image.height), \(sheet.presets.count) presets)")
        return 0
    }
}
