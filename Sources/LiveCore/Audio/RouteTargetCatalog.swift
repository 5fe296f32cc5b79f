import AudioReactive
import Engine

/// The targets the route editor offers: exactly `RouteTarget.allIDs` (only
/// modulatable parameters and the `species.*.X` wildcards), named for people
/// and grouped by section, with search. Pure; any thread.
public enum RouteTargetCatalog {
    /// One offered target.
    public struct Item: Equatable, Sendable {
        /// The target id (`effects.bloom`, `species.*.moveSpeed`).
        public var id: String
        /// "Bloom", "Species 2 · Move speed", "All species · Move speed".
        public var name: String
        /// The group it is listed under.
        public var group: String
    }

    /// Group title of the wildcards.
    public static let allSpeciesGroup = "All species"

    /// Every offered target, in display order (groups in order, registry order within).
    public static let items: [Item] = {
        var out: [Item] = []
        for id in RouteTarget.allIDs {
            guard let t = RouteTarget(id: id) else { continue }
            switch t {
            case .allSpecies(let f):
                out.append(Item(id: id, name: "\(allSpeciesGroup) · \(ParamKey.species(0, f).spec.label)", group: allSpeciesGroup))
            case .parameter(let k):
                let spec = k.spec
                let name = spec.species.map { "Species \($0 + 1) · \(spec.label)" } ?? spec.label
                out.append(Item(id: id, name: name, group: spec.section.title))
            }
        }
        let order = [allSpeciesGroup] + ParamSection.allCases.map(\.title)
        return out.enumerated().sorted { a, b in
            let ga = order.firstIndex(of: a.element.group) ?? order.count, gb = order.firstIndex(of: b.element.group) ?? order.count
            return (ga, a.offset) < (gb, b.offset)
        }.map(\.element)
    }()

    /// The items whose name, id or group contains every word of `query`
    /// (case-insensitive), grouped in display order.
    public static func search(_ query: String) -> [(group: String, items: [Item])] {
        let words = query.lowercased().split(separator: " ").map(String.init)
        let found = items.filter { item in
            let hay = (item.name + " " + item.id + " " + item.group).lowercased()
            return words.allSatisfy { hay.contains($0) }
        }
        var groups: [(group: String, items: [Item])] = []
        for item in found {
            if groups.last?.group == item.group { groups[groups.count - 1].items.append(item) } else { groups.append((item.group, [item])) }
        }
        return groups
    }

    /// The display name of a target id (the id itself when not offered).
    public static func name(of id: String) -> String { items.first { $0.id == id }?.name ?? id }
}
