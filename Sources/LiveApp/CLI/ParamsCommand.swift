import Engine
import Storage

/// `physarum params [--json]`: the parameter registry.
enum ParamsCommand: Subcommand {
    static let name = "params"
    static let summary = "list every parameter (id, range, default, help)"
    static let help = """
    Usage: physarum params [--json]

    Prints the parameter registry: every scalar parameter with its stable id,
    section, range, default, flags and help text, then the choice and colour
    parameters. With --json, prints one JSON array of objects with the fields
    id, label, section, kind, min, max, default, integer, respawn, scale, unit,
    choices (choice parameters only) and help.
    """

    static func run(_ args: [String]) throws -> Int32 {
        var r = ArgumentReader(args)
        let json = r.flag("--json")
        try r.finish()
        if json {
            print(jsonArray().text)
        } else {
            printTable()
        }
        return 0
    }

    static func jsonArray() -> JSONNode {
        var items: [JSONNode] = []
        for s in ParamRegistry.scalars {
            items.append(.object([
                ("id", .string(s.id)), ("label", .string(s.label)), ("section", .string(s.section.rawValue)),
                ("kind", .string(ParamKind.scalar.rawValue)), ("min", .double(s.min)), ("max", .double(s.max)),
                ("default", .double(s.defaultValue)), ("integer", .bool(s.integer)), ("respawn", .bool(s.respawn)),
                ("scale", .string(s.scale.rawValue)), ("unit", .string(s.unit)),
                ("modulatable", .bool(s.isModulatable)), ("help", .string(s.help)),
            ]))
        }
        for o in ParamRegistry.others {
            var fields: [(String, JSONNode)] = [
                ("id", .string(o.id)), ("label", .string(o.label)), ("section", .string(o.section.rawValue)),
                ("kind", .string(o.kind.rawValue)), ("min", .null), ("max", .null),
                ("default", .string(o.defaultValue)), ("integer", .bool(false)), ("respawn", .bool(o.id == "spawn.pattern")),
                ("scale", .null), ("unit", .string("")), ("modulatable", .bool(false)),
            ]
            if o.kind == .choice { fields.append(("choices", .array(o.choices.map(JSONNode.string)))) }
            fields.append(("help", .string(o.help)))
            items.append(.object(fields))
        }
        return .array(items)
    }

    static func printTable() {
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s.padding(toLength: n, withPad: " ", startingAt: 0) }
        func num(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e9 ? String(Int(d)) : String(d) }
        print(pad("ID", 28) + pad("RANGE", 20) + pad("DEFAULT", 10) + pad("SCALE", 12) + "FLAGS")
        for s in ParamRegistry.scalars {
            var flags: [String] = []
            if s.integer { flags.append("integer") }
            if s.respawn { flags.append("respawn") }
            if !s.isModulatable { flags.append("not-routable") }
            print(pad(s.id, 28) + pad("\(num(s.min))…\(num(s.max)) \(s.unit)", 20) + pad(num(s.defaultValue), 10)
                  + pad(s.scale.rawValue, 12) + flags.joined(separator: ","))
        }
        for o in ParamRegistry.others {
            let range = o.kind == .choice ? o.choices.joined(separator: "|") : "#rrggbb"
            print(pad(o.id, 28) + pad(range, 20) + " default " + o.defaultValue)
        }
        print("\n\(ParamRegistry.scalars.count) scalar parameters. `physarum params --json` includes the help texts.")
    }
}
