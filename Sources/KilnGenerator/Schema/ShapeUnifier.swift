import Foundation

/// Merges the object shapes that stand for the same kind of thing, so that each becomes one
/// Swift type however many places it appears in.
///
/// Objects are grouped by the name their key gives them (`sizes` → `Sizes`, the elements of
/// `children` → `Child`); inside a group, objects whose keys mostly agree (one's keys contain the
/// other's, or they share at least half of all their keys) are one type. Once two objects are one
/// type, the objects under their common keys are one type too. A shape that contains itself —
/// a tree whose `children` hold more of the same — becomes a shape graph with a cycle, which
/// ``TypeInference`` writes as a recursive type.
///
/// Objects keyed by ids (`{"1264": {…}, "1265": {…}}`, UUIDs) are maps: their values are merged
/// into one shape, read as `[String: Value]`.
final class ShapeUnifier {
    private var parent: [ObjectIdentifier: ObjectIdentifier] = [:]
    private var objects: [ObjectIdentifier: ObjectShape] = [:]
    /// Objects in the order first met, by group name.
    private var groups: [String: [ObjectIdentifier]] = [:]
    private var groupOrder: [String] = []
    private var maps: Set<ObjectIdentifier> = []
    private var merged: [ObjectIdentifier: ObjectShape] = [:]
    private var members: [ObjectIdentifier: [ObjectShape]] = [:]

    /// The unified copy of `root`, whose objects are named `rootName` (records at the root) or
    /// from their keys.
    static func unify(_ root: Shape, rootName: String) -> Shape {
        let unifier = ShapeUnifier()
        unifier.collect(root, name: rootName)
        unifier.cluster()
        unifier.propagate()
        unifier.mergeIdenticalAcrossNames()
        unifier.propagate()
        for (id, object) in unifier.objects { unifier.members[unifier.find(id), default: []].append(object) }
        for root in unifier.members.keys {
            unifier.members[root]?.sort {
                unifier.collectionOrder[ObjectIdentifier($0), default: 0] < unifier.collectionOrder[ObjectIdentifier($1), default: 0]
            }
        }
        return unifier.mergedShape([root])
    }

    // MARK: Collecting

    private func collect(_ shape: Shape, name: String, parent: String = "") {
        if let object = shape.object { collect(object, name: name) }
        if let element = shape.element { collect(element, name: Self.elementName(name, parent: parent), parent: parent) }
    }

    private func collect(_ object: ObjectShape, name: String) {
        let id = ObjectIdentifier(object)
        guard objects[id] == nil else { return }
        collectionOrder[id] = objects.count
        objects[id] = object
        parent[id] = id
        if Self.isMap(object) {
            maps.insert(id)
            let valueName = Self.elementName(name, parent: name)
            for key in object.keys {
                if let field = object.fields[key] { collect(field, name: valueName) }
            }
            // Every value of a map is one type.
            let valueObjects = object.keys.compactMap { object.fields[$0]?.object }
            for other in valueObjects.dropFirst() {
                if let first = valueObjects.first { union(ObjectIdentifier(first), ObjectIdentifier(other)) }
            }
            return
        }
        if groups[name] == nil { groupOrder.append(name) }
        groups[name, default: []].append(id)
        for key in object.keys {
            guard let field = object.fields[key] else { continue }
            collect(field, name: Self.typeBaseName(forKey: key, parent: name), parent: name)
        }
    }

    /// Groups objects of one name by how well their keys agree.
    private func cluster() {
        for name in groupOrder {
            var clusters: [(root: ObjectIdentifier, keys: Set<String>)] = []
            for id in groups[name] ?? [] {
                guard let object = objects[id] else { continue }
                let keys = Set(object.keys)
                if let index = clusters.firstIndex(where: { Self.compatible($0.keys, keys) }) {
                    union(clusters[index].root, id)
                    clusters[index].keys.formUnion(keys)
                } else {
                    clusters.append((id, keys))
                }
            }
        }
    }

    /// Objects met under different names but with the same keys holding the same kinds of value
    /// (`photo` and `video`, each `{"sizes": {…}}`) are one type, named after the first; not
    /// objects with a single scalar member, which say too little.
    private func mergeIdenticalAcrossNames() {
        var byRoot: [ObjectIdentifier: [ObjectShape]] = [:]
        for (id, object) in objects where !maps.contains(id) { byRoot[find(id), default: []].append(object) }
        var firstWithSignature: [String: ObjectIdentifier] = [:]
        let roots = byRoot.keys.sorted { collectionOrder[$0, default: 0] < collectionOrder[$1, default: 0] }
        for root in roots {
            guard let group = byRoot[root] else { continue }
            var kinds: [String: Set<Shape.Kind>] = [:]
            for object in group {
                for key in object.keys { kinds[key, default: []].formUnion(object.fields[key]?.kinds ?? []) }
            }
            // One scalar member (`{"name": …}`) says too little to call two things the same.
            guard kinds.count >= 2 || kinds.values.contains(where: { $0.contains(.object) || $0.contains(.array) }) else { continue }
            let signature = kinds.keys.sorted().map { key in key + ":" + (kinds[key] ?? []).map(\.rawValue).sorted().joined(separator: ",") }
                .joined(separator: "\u{0}")
            if let first = firstWithSignature[signature] {
                union(first, root)
            } else {
                firstWithSignature[signature] = root
            }
        }
    }

    /// One type's common keys hold one type: unify what sits under them, until nothing changes.
    private func propagate() {
        var changed = true
        while changed {
            changed = false
            var byRoot: [ObjectIdentifier: [ObjectShape]] = [:]
            for (id, object) in objects { byRoot[find(id), default: []].append(object) }
            for (_, group) in byRoot where group.count > 1 {
                var keys: Set<String> = []
                for object in group { keys.formUnion(object.keys) }
                for key in keys {
                    let shapes = group.compactMap { $0.fields[key] }
                    if unifyNested(shapes) { changed = true }
                }
                if group.contains(where: { maps.contains(ObjectIdentifier($0)) }) {
                    let values = group.flatMap { object in object.keys.compactMap { object.fields[$0] } }
                    if unifyNested(values) { changed = true }
                }
            }
        }
    }

    /// Unifies the objects of `shapes`, and of their elements at every depth.
    private func unifyNested(_ shapes: [Shape]) -> Bool {
        var changed = false
        let nestedObjects = shapes.compactMap(\.object)
        if let first = nestedObjects.first {
            for other in nestedObjects.dropFirst() where union(ObjectIdentifier(first), ObjectIdentifier(other)) {
                changed = true
            }
        }
        let elements = shapes.compactMap(\.element)
        if elements.count > 1, unifyNested(elements) { changed = true }
        return changed
    }

    // MARK: Union-find

    private func find(_ id: ObjectIdentifier) -> ObjectIdentifier {
        var root = id
        while let next = parent[root], next != root { root = next }
        var current = id
        while let next = parent[current], next != root {
            parent[current] = root
            current = next
        }
        return root
    }

    @discardableResult
    private func union(_ a: ObjectIdentifier, _ b: ObjectIdentifier) -> Bool {
        let rootA = find(a)
        let rootB = find(b)
        guard rootA != rootB else { return false }
        // The object met first names the type.
        if collectionOrder[rootB, default: 0] < collectionOrder[rootA, default: 0] {
            parent[rootA] = rootB
        } else {
            parent[rootB] = rootA
        }
        return true
    }

    // MARK: Building the merged graph

    private func mergedObject(_ object: ObjectShape) -> ObjectShape {
        let root = find(ObjectIdentifier(object))
        if let done = merged[root] { return done }
        let result = ObjectShape()
        merged[root] = result
        let group = members[root] ?? [object]
        result.count = group.reduce(0) { $0 + $1.count }
        if group.contains(where: { maps.contains(ObjectIdentifier($0)) }) {
            let values = group.flatMap { member in member.keys.compactMap { member.fields[$0] } }
            result.mapValue = mergedShape(values)
            let keys = Set(group.flatMap(\.keys))
            result.mapKeyCount = keys.count
            result.mapKeysAreIdentifiers = keys.allSatisfy(Self.isIdentifierKey)
            return result
        }
        var seen: Set<String> = []
        for member in group {
            for key in member.keys where seen.insert(key).inserted {
                result.keys.append(key)
            }
        }
        for key in result.keys {
            result.fields[key] = mergedShape(group.compactMap { $0.fields[key] })
        }
        return result
    }

    private func mergedShape(_ shapes: [Shape]) -> Shape {
        let result = Shape()
        for shape in shapes { result.absorbCounts(of: shape) }
        if let object = shapes.lazy.compactMap(\.object).first { result.object = mergedObject(object) }
        let elements = shapes.compactMap(\.element)
        if !elements.isEmpty { result.element = mergedShape(elements) }
        return result
    }

    /// The order objects were met in, for a deterministic merge.
    private var collectionOrder: [ObjectIdentifier: Int] = [:]

    // MARK: Rules

    /// Whether two key sets describe the same kind of object.
    static func compatible(_ a: Set<String>, _ b: Set<String>) -> Bool {
        if a.isEmpty || b.isEmpty || a.isSubset(of: b) || b.isSubset(of: a) { return true }
        return a.intersection(b).count * 2 >= a.union(b).count
    }

    /// Whether an object is a lookup table rather than a record: every value of the same kinds,
    /// and either at least two keys that are all ids (digits, UUIDs) or so many keys
    /// (``wideTableKeys``) that no one would write them as properties (an emoji table, rates by
    /// currency).
    static func isMap(_ object: ObjectShape) -> Bool {
        guard object.keys.count >= 2, object.keys.allSatisfy(isIdentifierKey) || object.keys.count >= wideTableKeys else { return false }
        let kinds = object.keys.compactMap { object.fields[$0].map { Set($0.kinds) } }
        guard let first = kinds.first, !first.isEmpty else { return false }
        return kinds.allSatisfy { $0 == first }
    }

    /// How many keys, all holding the same kind of value, make an object a table.
    static let wideTableKeys = 200

    static func isIdentifierKey(_ key: String) -> Bool {
        if !key.isEmpty, key.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        return key.count == 36 && UUID(uuidString: key) != nil
    }

    /// The name the objects under `key` take: `author` → `Author`, `2x` → `T2x`.
    static func typeBaseName(forKey key: String, parent: String) -> String {
        let property = Identifiers.preferredPropertyName(key)
        let name = Identifiers.typeName(fromProperty: property)
        return name.isEmpty ? parent + "Field" : name
    }

    /// The name an array's elements take: `Tags` → `Tag`, `Categories` → `Category`; containers
    /// (`List`, `Data`) → `<Parent>Item`; other non-plurals → `<Name>Item`.
    static func elementName(_ name: String, parent: String) -> String {
        if let singular = Identifiers.singular(name) { return Identifiers.uppercasingFirst(singular) }
        let containers: Set<String> = ["list", "data", "array", "content", "payload", "result"]
        if containers.contains(name.lowercased()), !parent.isEmpty { return parent + "Item" }
        return name + "Item"
    }
}
