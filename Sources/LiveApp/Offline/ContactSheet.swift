import Engine
import Foundation

/// A contact sheet: every preset rendered offline, tiled in a grid with its
/// name under each tile. Deterministic for the same options.
struct ContactSheet {
    var presets: [Preset]
    /// Size of each tile (the rendered frame).
    var tileWidth = 400, tileHeight = 225
    /// Simulation field per tile; agents are scaled from the preset's count
    /// (meant for a 1280×720 field) by field area, so the density — and with it
    /// the look — stays the preset's.
    var fieldWidth = 960, fieldHeight = 540
    var steps = 300
    var columns = 4
    var seed: UInt64 = 1
    var threads = Simulation.defaultThreads

    static let labelHeight = 24, gap = 8
    static let sheetBackground = RGBColor(r: 0x14, g: 0x14, b: 0x16)

    /// Agents for `preset` on this sheet's field.
    func agents(for preset: Preset) -> Int {
        preset.params.agents(forFieldWidth: fieldWidth, height: fieldHeight)
    }

    /// Renders the sheet; `progress(done)` after each preset.
    func render(progress: (Int) -> Void = { _ in }) throws -> RGBAImage {
        let rows = (presets.count + columns - 1) / columns
        let cellW = tileWidth + Self.gap, cellH = tileHeight + Self.labelHeight + Self.gap
        var sheet = RGBAImage(width: columns * cellW + Self.gap, height: rows * cellH + Self.gap)
        sheet.fill(Self.sheetBackground)
        for (n, preset) in presets.enumerated() {
            var job = OfflineRender(preset: preset)
            job.width = tileWidth
            job.height = tileHeight
            job.fieldWidth = fieldWidth
            job.fieldHeight = fieldHeight
            job.agents = agents(for: preset)
            job.seed = seed
            job.stepsPerFrame = Double(steps)
            job.threads = threads
            var tile = RGBAImage(width: tileWidth, height: tileHeight)
            try job.run { _, image in tile = image }
            let x = Self.gap + (n % columns) * cellW, y = Self.gap + (n / columns) * cellH
            sheet.paste(tile, x: x, y: y)
            BitmapFont.draw(preset.name, x: x + 2, y: y + tileHeight + 6, scale: 2,
                            color: RGBColor(r: 0xe8, g: 0xe8, b: 0xe8), into: &sheet)
            progress(n + 1)
        }
        return sheet
    }
}
