import Foundation
@testable import Strata
@testable import StrataCore
import StrataStorage
import StrataTestSupport
import XCTest

/// Issue 18, item 1: random schema changes over random object graphs, each compared after every
/// step with a plain Swift model: every object and value, every link in both directions (the
/// rows' links and the `b:` backlink trees, with their counts), every LinkingObjects result,
/// every index and primary-key tree, embedded ownership, key counters, and no tree left behind.
///
/// The schema changes go through the real migration path: `Realm(configuration:)` with the
/// dynamic classes of DynamicSchemaModels.swift, whose schemas change between steps; renames are
/// recorded in the module's migrations (as the schema history's generated code records them) or
/// done by `renameProperty` in the migration block. Seeded and deterministic.
final class MigrationModelTests: SeedTestCase {
    // MARK: The model

    indirect enum Kind: Equatable {
        case int, string, optInt
        case link(String), list(String), set(String), map(String)
        case embedded(String)
        case backlink(String, String)

        var target: String? {
            switch self {
            case .link(let t), .list(let t), .set(let t), .map(let t), .embedded(let t), .backlink(let t, _): t
            default: nil
            }
        }
        var isLink: Bool {
            switch self {
            case .link, .list, .set, .map, .embedded: true;
            default: false
            }
        }
        func retargeted(_ from: String, _ to: String) -> Kind {
            switch self {
            case .link(let t) where t == from: .link(to)
            case .list(let t) where t == from: .list(to)
            case .set(let t) where t == from: .set(to)
            case .map(let t) where t == from: .map(to)
            case .embedded(let t) where t == from: .embedded(to)
            case .backlink(let t, let p) where t == from: .backlink(to, p)
            default: self
            }
        }
    }

    struct MProp { var name: String; var kind: Kind; var indexed = false }

    struct MClass {
        var slot: Int
        var name: String
        var embedded: Bool
        var props: [MProp]
        var pk: String?
        func prop(_ n: String) -> MProp? { props.first { $0.name == n } }
    }

    enum MVal: Equatable {
        case int(Int64), str(String), null
        case link(Int?)  // mid
        case list([Int])  // mids in order
        case map([String: Int?])
    }

    struct Model {
        var classes: [MClass] = []
        /// Classes no model declares any more, whose tables stay in the file.
        var retired: [MClass] = []
        /// Objects by class name: mid -> values by property name.
        var objects: [String: [Int: [String: MVal]]] = [:]
        var nextMid = 1
        var nextName = 0

        func cls(_ name: String) -> MClass? { (classes + retired).first { $0.name == name } }
        var all: [MClass] { classes + retired }

        mutating func freshName(_ prefix: String) -> String {
            nextName += 1
            return "\(prefix)\(nextName)"
        }

        static func defaultValue(_ k: Kind) -> MVal {
            switch k {
            case .int: .int(0)
            case .string: .str("")
            case .optInt: .null
            case .link, .embedded: .link(nil)
            case .list, .set: .list([])
            case .map: .map([:])
            case .backlink: .null
            }
        }

        /// Deletes object `mid` of `cls` with the store's cleanup: links to it removed (to-one
        /// null, list and set elements removed, map values null), embedded objects it owns deleted.
        mutating func delete(_ name: String, _ mid: Int) {
            guard let values = objects[name]?[mid] else { return }
            objects[name]?[mid] = nil
            for c in all {
                for p in c.props where p.kind.target == name && p.kind.isLink {
                    for (m, var v) in objects[c.name] ?? [:] {
                        switch v[p.name] {
                        case .link(let t) where t == mid: v[p.name] = .link(nil)
                        case .list(let l): v[p.name] = .list(l.filter { $0 != mid })
                        case .map(let d): v[p.name] = .map(d.mapValues { $0 == mid ? nil : $0 })
                        default: break
                        }
                        objects[c.name]?[m] = v
                    }
                }
            }
            if let c = cls(name) {
                for p in c.props {
                    if case .embedded(let e) = p.kind, case .link(let t?) = values[p.name] { delete(e, t) }
                }
            }
        }

        /// Embedded objects with no owner (their owning property was removed) are deleted.
        mutating func dropOrphans() {
            for e in classes where e.embedded {
                var owned = Set<Int>()
                for c in all {
                    for p in c.props where p.kind == .embedded(e.name) {
                        for (_, v) in objects[c.name] ?? [:] { if case .link(let t?) = v[p.name] { owned.insert(t) } }
                    }
                }
                for mid in (objects[e.name] ?? [:]).keys where !owned.contains(mid) { delete(e.name, mid) }
            }
        }
    }

    // MARK: Schema from the model

    static func schema(_ c: MClass) -> ObjectSchema {
        let properties = c.props.map { p -> Strata.Property in
            let pk = c.pk == p.name
            switch p.kind {
            case .int:
                return Property(name: p.name, type: .int, swiftType: "Int", isPrimaryKey: pk, isIndexed: p.indexed)
            case .string:
                return Property(
                    name: p.name, type: .string, swiftType: "String", isPrimaryKey: pk, isIndexed: p.indexed)
            case .optInt:
                return Property(name: p.name, type: .int, swiftType: "Int?", isOptional: true, isIndexed: p.indexed)
            case .link(let t), .embedded(let t):
                return Property(name: p.name, type: .object, swiftType: "\(t)?", isOptional: true, objectClassName: t)
            case .list(let t):
                return Property(
                    name: p.name, type: .object, swiftType: "List<\(t)>", collection: .list, objectClassName: t)
            case .set(let t):
                return Property(
                    name: p.name, type: .object, swiftType: "MutableSet<\(t)>", collection: .set, objectClassName: t)
            case .map(let t):
                return Property(
                    name: p.name, type: .object, swiftType: "Map<String, \(t)?>", isOptional: true, collection: .map,
                    objectClassName: t)
            case .backlink(let t, let origin):
                return Property(
                    name: p.name, type: .linkingObjects, swiftType: "LinkingObjects<\(t)>", objectClassName: t,
                    linkOriginPropertyName: origin)
            }
        }
        return ObjectSchema(className: c.name, kind: c.embedded ? .embedded : .object, properties: properties)
    }

    func install(_ model: Model) {
        DynamicSchemas.schemas = Array(repeating: nil, count: 5)
        for c in model.classes { DynamicSchemas.schemas[c.slot] = Self.schema(c) }
    }

    override func tearDown() {
        DynamicSchemas.schemas = Array(repeating: nil, count: 5)
        DynamicSchemas.schemaVersion = 0
        DynamicSchemas.migrations = []
        super.tearDown()
    }

    // MARK: The test

    func testRandomSchemaChangesKeepEveryRelationshipAndIndexConsistent() throws {
        for seed in 1...12 as ClosedRange<UInt64> {
            try runScenario(seed: seed, steps: 16)
        }
    }

    var rng = SplitMix(seed: 0)
    var path = ""
    /// Classes changed in the current step.
    var touched: Set<String> = []

    func runScenario(seed: UInt64, steps: Int) throws {
        rng = SplitMix(seed: seed)
        path = dir + "/model-\(seed).realm"
        DynamicSchemas.schemaVersion = 0
        DynamicSchemas.migrations = []
        var model = Model()
        // Version 0: two classes and the embedded class, linked.
        let a = MClass(slot: 0, name: model.freshName("A"), embedded: false, props: [], pk: nil)
        let b = MClass(slot: 1, name: model.freshName("B"), embedded: false, props: [], pk: nil)
        let e = MClass(slot: 4, name: model.freshName("E"), embedded: true, props: [], pk: nil)
        model.classes = [a, b, e]
        for i in model.classes.indices {
            model.classes[i].props = [MProp(name: "mid", kind: .int), MProp(name: "code", kind: .string)]
            if !model.classes[i].embedded { model.classes[i].props.append(MProp(name: "n", kind: .int, indexed: true)) }
        }
        model.classes[0].props += [
            MProp(name: "toB", kind: .link(b.name)), MProp(name: "bs", kind: .list(b.name)),
            MProp(name: "emb", kind: .embedded(e.name)),
        ]
        model.classes[1].props += [
            MProp(name: "fromA", kind: .backlink(a.name, "bs")), MProp(name: "byKey", kind: .map(a.name)),
        ]
        try open(model, version: 0, block: nil)
        try writeRandomData(&model, seed: seed)
        try check(model, "seed \(seed) initial")
        for step in 1...steps {
            var block: [(inout Model, Migration) -> Void] = []
            var recorded: [MigrationStep] = []
            let changes = 1 + rng.below(3)
            var applied: [String] = []
            touched = []
            for _ in 0..<changes {
                if let what = randomSchemaChange(&model, &recorded, &block) { applied.append(what) }
            }
            if rng.below(2) == 0 { block.append(randomBlockEdits()); applied.append("block edits") }
            DynamicSchemas.schemaVersion += 1
            DynamicSchemas.migrations.append(
                SchemaMigration(
                    fromVersion: DynamicSchemas.schemaVersion - 1, toVersion: DynamicSchemas.schemaVersion,
                    steps: recorded))
            let label = "seed \(seed) step \(step) (\(applied.joined(separator: ", ")))"
            var modelBox = model
            try open(
                model, version: DynamicSchemas.schemaVersion,
                block: block.isEmpty
                    ? nil
                    : { migration in
                        for b in block { b(&modelBox, migration) }
                    })
            model = modelBox
            model.dropOrphans()
            try check(model, label)
            try writeRandomData(&model, seed: seed &+ UInt64(step))
            try check(model, label + " + writes")
        }
    }

    /// Opens the file with the model's classes at `version`, running `block` as the migration
    /// block; every realm is closed when it returns.
    func open(_ model: Model, version: UInt64, block: ((Migration) -> Void)?) throws {
        install(model)
        final class Box: @unchecked Sendable { var run: ((Migration) -> Void)? }
        let box = Box()
        box.run = block
        var migrationBlock: MigrationBlock?
        if block != nil { migrationBlock = { m, _ in box.run?(m) } }
        let config = Realm.Configuration(
            fileURL: URL(fileURLWithPath: path), migrationBlock: migrationBlock,
            objectTypes: DynamicSchemas.activeTypes)
        _ = try Realm(configuration: config)
    }

    func withRealm(_ model: Model, _ body: (Realm, StoreTransaction) throws -> Void) throws {
        install(model)
        let config = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: DynamicSchemas.activeTypes)
        let realm = try Realm(configuration: config)
        try realm.write { try body(realm, realm.writeTxn!) }
    }

    // MARK: Random schema changes

    /// Applies one random change to the model and returns its description; `recorded` gets the
    /// renames the history would record, `block` the migration block's part.
    func randomSchemaChange(
        _ model: inout Model, _ recorded: inout [MigrationStep], _ block: inout [(inout Model, Migration) -> Void]
    ) -> String? {
        let top = model.classes.indices.filter { !model.classes[$0].embedded }
        // One change per class and step (a second would act on names the first changed).
        let free = top.filter { !touched.contains(model.classes[$0].name) }
        guard !free.isEmpty else { return nil }
        let ci = free[rng.below(free.count)]
        touched.insert(model.classes[ci].name)
        let c = model.classes[ci]
        let plain = c.props.indices.filter { !["mid", "code"].contains(c.props[$0].name) && c.props[$0].name != c.pk }
        switch rng.below(11) {
        case 0:  // add a value property
            let kind: Kind = [.int, .string, .optInt][rng.below(3)]
            let p = MProp(name: model.freshName("p"), kind: kind, indexed: kind != .optInt && rng.below(2) == 0)
            model.classes[ci].props.append(p)
            for mid in (model.objects[c.name] ?? [:]).keys {
                model.objects[c.name]?[mid]?[p.name] = Model.defaultValue(kind)
            }
            return "add \(c.name).\(p.name)"
        case 1:  // add a link, list, set or map to a class
            let targets = model.classes.filter { !$0.embedded }
            let t = targets[rng.below(targets.count)].name
            let kind: Kind = [.link(t), .list(t), .set(t), .map(t)][rng.below(4)]
            let p = MProp(name: model.freshName("l"), kind: kind)
            model.classes[ci].props.append(p)
            for mid in (model.objects[c.name] ?? [:]).keys {
                model.objects[c.name]?[mid]?[p.name] = Model.defaultValue(kind)
            }
            if case .list = kind, rng.below(2) == 0, let ti = model.classes.firstIndex(where: { $0.name == t }) {
                model.classes[ti].props.append(MProp(name: model.freshName("back"), kind: .backlink(c.name, p.name)))
            }
            return "add link \(c.name).\(p.name)"
        case 2:  // remove a property (and the LinkingObjects that invert it)
            guard let i = plain.randomElement(using: &rng) else { return nil }
            let p = c.props[i]
            model.classes[ci].props.remove(at: i)
            for mid in (model.objects[c.name] ?? [:]).keys { model.objects[c.name]?[mid]?[p.name] = nil }
            for k in model.classes.indices { model.classes[k].props.removeAll { $0.kind == .backlink(c.name, p.name) } }
            return "remove \(c.name).\(p.name)"
        case 3:  // rename a property: recorded in the history, or by the migration block
            guard let i = plain.randomElement(using: &rng), case let p = c.props[i],
                p.kind.isLink || [.int, .string, .optInt].contains(p.kind)
            else { return nil }
            let new = model.freshName("r")
            model.classes[ci].props[i].name = new
            for mid in (model.objects[c.name] ?? [:]).keys {
                let value = model.objects[c.name]?[mid]?[p.name]
                model.objects[c.name]?[mid]?[new] = value
                model.objects[c.name]?[mid]?[p.name] = nil
            }
            for k in model.classes.indices {
                for j in model.classes[k].props.indices
                where model.classes[k].props[j].kind == .backlink(c.name, p.name) {
                    model.classes[k].props[j].kind = .backlink(c.name, new)
                }
            }
            if rng.below(2) == 0 {
                recorded.append(.renameProperty(type: c.name, from: p.name, to: new))
                return "rename \(c.name).\(p.name) -> \(new) (recorded)"
            }
            let cls = c.name, old = p.name
            block.append { _, m in m.renameProperty(onType: cls, from: old, to: new) }
            return "rename \(c.name).\(p.name) -> \(new) (block)"
        case 4:  // change a value property's type (Int <-> String), converted by the block or not
            guard let i = plain.first(where: { [.int, .string].contains(c.props[$0].kind) }) else { return nil }
            let p = c.props[i]
            let toString = p.kind == .int
            model.classes[ci].props[i].kind = toString ? .string : .int
            let convert = rng.below(2) == 0
            for (mid, v) in model.objects[c.name] ?? [:] {
                let newValue: MVal
                switch (v[p.name], convert) {
                case (.int(let n)?, true): newValue = .str(String(n))
                case (.str(let s)?, true): newValue = .int(Int64(s) ?? 0)
                default: newValue = toString ? .str("") : .int(0)
                }
                model.objects[c.name]?[mid]?[p.name] = newValue
            }
            if convert {
                let cls = c.name, name = p.name
                block.append { _, m in
                    m.enumerateObjects(ofType: cls) { old, new in
                        if toString {
                            new?[name] = String(old?[name] as? Int ?? 0)
                        } else {
                            new?[name] = Int(old?[name] as? String ?? "") ?? 0
                        }
                    }
                }
            }
            return "retype \(c.name).\(p.name)\(convert ? " (converted)" : "")"
        case 5:  // optional <-> required
            guard let i = plain.first(where: { [.int, .optInt].contains(c.props[$0].kind) }) else { return nil }
            let p = c.props[i]
            model.classes[ci].props[i].kind = p.kind == .int ? .optInt : .int
            if p.kind == .int { model.classes[ci].props[i].indexed = false }
            if p.kind == .optInt {
                for (mid, v) in model.objects[c.name] ?? [:] where v[p.name] == .null {
                    model.objects[c.name]?[mid]?[p.name] = .int(0)
                }
            }
            return "toggle optional \(c.name).\(p.name)"
        case 6:  // index on / off
            guard
                let i = c.props.indices.first(where: {
                    [.int, .string].contains(c.props[$0].kind) && c.props[$0].name != c.pk && rng.below(2) == 0
                })
            else { return nil }
            model.classes[ci].props[i].indexed.toggle()
            return "toggle index \(c.name).\(c.props[i].name)"
        case 7:  // primary key: none, mid (Int: the object key) or code (String)
            let choices: [String?] = [nil, "mid", "code"].filter { $0 != c.pk }
            let pk = choices[rng.below(choices.count)]
            model.classes[ci].pk = pk
            return "primary key of \(c.name) -> \(pk ?? "none")"
        case 8:  // a new class, linked from this one
            guard let slot = (0..<4).first(where: { s in !model.classes.contains { $0.slot == s } }) else { return nil }
            let n = MClass(
                slot: slot, name: model.freshName("C"), embedded: false,
                props: [
                    MProp(name: "mid", kind: .int), MProp(name: "code", kind: .string), MProp(name: "n", kind: .int),
                ], pk: nil)
            model.classes.append(n)
            model.classes[ci].props.append(MProp(name: model.freshName("l"), kind: .list(n.name)))
            for mid in (model.objects[c.name] ?? [:]).keys {
                model.objects[c.name]?[mid]?[model.classes[ci].props.last!.name] = .list([])
            }
            return "add class \(n.name)"
        case 9:
            // remove a class (and the properties of other classes linking to it): its table stays, or deleteData drops it
            let linking = model.classes.filter { k in k.name != c.name && k.props.contains { $0.kind.target == c.name }
            }.map(\.name)
            guard top.count > 1, !linking.contains(where: touched.contains) else { return nil }
            model.classes.remove(at: ci)
            for k in model.classes.indices {
                let gone = model.classes[k].props.filter { $0.kind.target == c.name && c.name != model.classes[k].name }
                guard !gone.isEmpty else { continue }
                // Changing that class too: no other change to it in this step.
                touched.insert(model.classes[k].name)
                model.classes[k].props.removeAll { $0.kind.target == c.name }
                let owner = model.classes[k].name
                for p in gone {
                    for mid in (model.objects[owner] ?? [:]).keys { model.objects[owner]?[mid]?[p.name] = nil }
                    for j in model.classes.indices {
                        model.classes[j].props.removeAll { $0.kind == .backlink(owner, p.name) }
                    }
                }
            }
            if rng.below(2) == 0 {
                var retired = c
                retired.props.removeAll { if case .backlink = $0.kind { true } else { false } }
                model.retired.append(retired)
                return "remove class \(c.name) (kept in the file)"
            }
            let name = c.name
            block.append { model, m in
                m.deleteData(forType: name)
                for mid in (model.objects[name] ?? [:]).keys { model.delete(name, mid) }
                model.objects[name] = nil
            }
            // The model deletes in the block part, where the class is still known to it.
            model.retired.append(c)
            block.append { model, _ in model.retired.removeAll { $0.name == name } }
            return "remove class \(c.name) (deleteData)"
        default:  // rename a class (recorded)
            let new = model.freshName("R")
            let old = c.name
            touched.insert(new)
            model.classes[ci].name = new
            for k in model.classes.indices {
                for j in model.classes[k].props.indices {
                    model.classes[k].props[j].kind = model.classes[k].props[j].kind.retargeted(old, new)
                }
            }
            for k in model.retired.indices {
                for j in model.retired[k].props.indices {
                    model.retired[k].props[j].kind = model.retired[k].props[j].kind.retargeted(old, new)
                }
            }
            model.objects[new] = model.objects[old]
            model.objects[old] = nil
            recorded.append(.renameType(from: old, to: new))
            return "rename class \(old) -> \(new)"
        }
    }

    /// Migration-block edits: values and links of enumerated objects, creates and deletes.
    func randomBlockEdits() -> (inout Model, Migration) -> Void {
        let r = rng.next()
        return { model, m in
            var rng = SplitMix(seed: r)
            for c in model.classes where !c.embedded {
                guard rng.below(3) != 0 else { continue }
                var news: [Int: MigrationObject] = [:]
                m.enumerateObjects(ofType: c.name) { _, new in
                    guard let new, let mid = new["mid"] as? Int else { return }
                    news[mid] = new
                }
                for (mid, obj) in news.sorted(by: { $0.key < $1.key }) {
                    switch rng.below(5) {
                    case 0:
                        let v = Int64(rng.below(50))
                        if c.prop("n")?.kind == .int { obj["n"] = Int(v); model.objects[c.name]?[mid]?["n"] = .int(v) }
                        if c.prop("n")?.kind == .string {
                            obj["n"] = String(v); model.objects[c.name]?[mid]?["n"] = .str(String(v))
                        }
                    case 1:
                        // Point a link-valued property at another object of its class.
                        guard let p = c.props.first(where: { if case .link = $0.kind { true } else { false } }),
                            let t = p.kind.target
                        else { break }
                        var targets: [Int: MigrationObject] = [:]
                        m.enumerateObjects(ofType: t) { _, new in
                            if let new, let tm = new["mid"] as? Int { targets[tm] = new }
                        }
                        if let (tm, to) = targets.sorted(by: { $0.key < $1.key }).randomElement(using: &rng) {
                            obj[p.name] = to
                            model.objects[c.name]?[mid]?[p.name] = .link(tm)
                        }
                    case 2:
                        m.delete(obj)
                        model.delete(c.name, mid)
                    case 3:
                        // Replace a list (or set) with objects of its class, given as MigrationObjects.
                        guard
                            let p = c.props.first(where: {
                                if case .list = $0.kind { true } else if case .set = $0.kind { true } else { false }
                            }),
                            let t = p.kind.target
                        else { break }
                        var targets: [Int: MigrationObject] = [:]
                        m.enumerateObjects(ofType: t) { _, new in
                            if let new, let tm = new["mid"] as? Int { targets[tm] = new }
                        }
                        let picked = targets.keys.sorted().filter { _ in rng.below(3) == 0 }
                        obj[p.name] = picked.map { targets[$0]! }
                        model.objects[c.name]?[mid]?[p.name] = .list(picked)
                    default:
                        break
                    }
                }
                // Now and then, every object of the class goes (deleteData of a class the models keep).
                if rng.below(12) == 0 {
                    m.deleteData(forType: c.name)
                    for mid in (model.objects[c.name] ?? [:]).keys.sorted() { model.delete(c.name, mid) }
                }
                if rng.below(2) == 0 {
                    let mid = model.nextMid
                    model.nextMid += 1
                    var values: [String: Any] = ["mid": mid, "code": "c\(mid)"]
                    var mv: [String: MVal] = [:]
                    for p in c.props {
                        mv[p.name] = Model.defaultValue(p.kind)
                    }
                    mv["mid"] = .int(Int64(mid))
                    mv["code"] = .str("c\(mid)")
                    if c.prop("n")?.kind == .int { values["n"] = 7; mv["n"] = .int(7) }
                    m.create(c.name, value: values)
                    model.objects[c.name, default: [:]][mid] = mv
                }
            }
        }
    }

    // MARK: Random data

    /// One write of random inserts, link edits and deletes through the object store.
    func writeRandomData(_ model: inout Model, seed: UInt64) throws {
        var rng = SplitMix(seed: seed &* 31 &+ 7)
        var m = model
        try withRealm(model) { realm, txn in
            func table(_ name: String) -> StoreTable { realm.binding(named: name)!.table }
            func keys(_ name: String) throws -> [Int: Int64] {
                var out: [Int: Int64] = [:]
                let t = table(name)
                let mc = t.columnIndex["mid"]!
                try txn.forEachRow(t) { row in
                    if case .int(let v) = row.value(mc) { out[Int(v)] = row.key }
                    return true
                }
                return out
            }
            // Inserts.
            for c in m.classes where !c.embedded {
                for _ in 0..<(1 + rng.below(4)) {
                    let mid = m.nextMid
                    m.nextMid += 1
                    let t = table(c.name)
                    var values = t.columns.map(\.defaultValue)
                    var mv: [String: MVal] = [:]
                    for p in c.props where p.kind != .backlink(p.kind.target ?? "", "") {
                        if case .backlink = p.kind { continue }
                        mv[p.name] = Model.defaultValue(p.kind)
                    }
                    values[t.columnIndex["mid"]!] = .int(Int64(mid)); mv["mid"] = .int(Int64(mid))
                    values[t.columnIndex["code"]!] = .string("c\(mid)"); mv["code"] = .str("c\(mid)")
                    for p in c.props {
                        switch p.kind {
                        case .int where p.name != "mid":
                            let v = Int64(rng.below(20)); values[t.columnIndex[p.name]!] = .int(v); mv[p.name] = .int(v)
                        case .string where p.name != "code":
                            let v = "s\(rng.below(20))"; values[t.columnIndex[p.name]!] = .string(v);
                            mv[p.name] = .str(v)
                        case .optInt:
                            if rng.below(2) == 0 {
                                let v = Int64(rng.below(20)); values[t.columnIndex[p.name]!] = .int(v);
                                mv[p.name] = .int(v)
                            }
                        default: break
                        }
                    }
                    try txn.insert(into: t, values: values)
                    m.objects[c.name, default: [:]][mid] = mv
                }
            }
            // Link edits.
            for c in m.classes where !c.embedded {
                let own = try keys(c.name)
                for p in c.props {
                    guard let target = p.kind.target, p.kind.isLink, let tc = m.cls(target),
                        m.classes.contains(where: { $0.name == target })
                    else { continue }
                    let t = table(c.name), col = t.columnIndex[p.name]!
                    let targetKeys = tc.embedded ? [:] : try keys(target)
                    for (mid, key) in own.sorted(by: { $0.key < $1.key }) where rng.below(3) == 0 {
                        let pick = targetKeys.keys.sorted().randomElement(using: &rng)
                        switch p.kind {
                        case .link:
                            try txn.set(t, key: key, column: col, to: pick.map { .link(targetKeys[$0]!) } ?? .null)
                            m.objects[c.name]?[mid]?[p.name] = .link(pick)
                        case .list:
                            var l: [Int] = []
                            for _ in 0..<rng.below(4) {
                                if let x = targetKeys.keys.sorted().randomElement(using: &rng) { l.append(x) }
                            }
                            try txn.set(t, key: key, column: col, to: .list(l.map { .link(targetKeys[$0]!) }))
                            m.objects[c.name]?[mid]?[p.name] = .list(l)
                        case .set:
                            var l: [Int] = []
                            for x in targetKeys.keys.sorted() where rng.below(3) == 0 { l.append(x) }
                            try txn.set(t, key: key, column: col, to: .list(l.map { .link(targetKeys[$0]!) }))
                            m.objects[c.name]?[mid]?[p.name] = .list(l)
                        case .map:
                            var d: [String: Int?] = [:]
                            for k in ["k0", "k1", "k2"] where rng.below(2) == 0 {
                                d[k] = targetKeys.keys.sorted().randomElement(using: &rng)
                            }
                            try txn.set(
                                t, key: key, column: col,
                                to: .map(d.mapValues { $0.map { .link(targetKeys[$0]!) } ?? .null }))
                            m.objects[c.name]?[mid]?[p.name] = .map(d)
                        case .embedded(let e):
                            guard case .link(nil)? = m.objects[c.name]?[mid]?[p.name] else { break }
                            let emid = m.nextMid
                            m.nextMid += 1
                            let et = table(e)
                            var ev = et.columns.map(\.defaultValue)
                            ev[et.columnIndex["mid"]!] = .int(Int64(emid))
                            ev[et.columnIndex["code"]!] = .string("c\(emid)")
                            let ek = try txn.insert(into: et, values: ev)
                            try txn.set(t, key: key, column: col, to: .link(ek))
                            var emv: [String: MVal] = [:]
                            for ep in tc.props { emv[ep.name] = Model.defaultValue(ep.kind) }
                            emv["mid"] = .int(Int64(emid)); emv["code"] = .str("c\(emid)")
                            m.objects[e, default: [:]][emid] = emv
                            m.objects[c.name]?[mid]?[p.name] = .link(emid)
                        default: break
                        }
                    }
                }
            }
            // Deletes.
            for c in m.classes where !c.embedded {
                let own = try keys(c.name)
                for (mid, key) in own.sorted(by: { $0.key < $1.key }) where rng.below(6) == 0 {
                    try txn.delete(table(c.name), key: key)
                    m.delete(c.name, mid)
                }
            }
        }
        model = m
    }

    // MARK: Checking the file against the model

    func check(_ model: Model, _ label: String) throws {
        let db = try Database(path: path)
        defer { db.close() }
        let read = try db.beginRead()
        defer { read.end() }
        let txn = StoreTransaction(read: read)
        let stored = try txn.storedTables()
        let all = model.all
        XCTAssertEqual(Set(stored.keys), Set(all.map(\.name)), "\(label): stored tables")
        // Object keys of every object, by class and mid.
        var keyOf: [String: [Int: Int64]] = [:]
        var midOf: [String: [Int64: Int]] = [:]
        for c in all {
            guard let t = stored[c.name] else { continue }
            var rows: [Int64: [StoreValue]] = [:]
            try txn.forEachRow(t) { row in
                rows[row.key] = row.values(); return true
            }
            let mc = try XCTUnwrap(t.columnIndex["mid"], label)
            for (key, values) in rows {
                if case .int(let v) = values[mc] {
                    keyOf[c.name, default: [:]][Int(v)] = key; midOf[c.name, default: [:]][key] = Int(v)
                }
            }
            XCTAssertEqual(rows.count, keyOf[c.name]?.count ?? 0, "\(label): \(c.name) mids are unique")
        }
        // target table -> "targetMid origin col originMid" -> count
        var expectedBacklinks: [String: [String: UInt32]] = [:]
        for c in all {
            guard let t = stored[c.name] else { continue }
            let expected = model.objects[c.name] ?? [:]
            XCTAssertEqual(Set((keyOf[c.name] ?? [:]).keys), Set(expected.keys), "\(label): objects of \(c.name)")
            // Columns as the model says.
            if model.classes.contains(where: { $0.name == c.name }) {
                XCTAssertEqual(Set(t.columns.map(\.name)), Set(c.props.map(\.name)), "\(label): columns of \(c.name)")
                XCTAssertEqual(t.isEmbedded, c.embedded, label)
                XCTAssertEqual(
                    t.primaryKeyColumn.map { t.columns[$0].name }, c.pk, "\(label): primary key of \(c.name)")
            }
            for (mid, values) in expected {
                guard let key = keyOf[c.name]?[mid], let row = try txn.row(t, key: key) else { continue }
                if c.pk == "mid" {
                    XCTAssertEqual(key, Int64(mid), "\(label): \(c.name) is keyed by its Int primary key")
                }
                for p in c.props {
                    guard let col = t.columnIndex[p.name] else {
                        XCTFail("\(label): \(c.name).\(p.name) missing"); continue
                    }
                    let v = row.value(col)
                    let want = values[p.name] ?? Model.defaultValue(p.kind)
                    func midFor(_ k: Int64, _ target: String) -> Int? { midOf[target]?[k] }
                    switch p.kind {
                    case .int, .optInt:
                        XCTAssertEqual(
                            v,
                            want == .null
                                ? .null : { if case .int(let n) = want { return .int(n) } else { return .null } }(),
                            "\(label): \(c.name)[\(mid)].\(p.name)")
                    case .string:
                        if case .str(let s) = want {
                            XCTAssertEqual(v, .string(s), "\(label): \(c.name)[\(mid)].\(p.name)")
                        }
                    case .link(let target), .embedded(let target):
                        let got: Int? = {
                            if case .link(let k) = v { return midFor(k, target) ?? -1 } else { return nil }
                        }()
                        XCTAssertEqual(MVal.link(got), want, "\(label): \(c.name)[\(mid)].\(p.name)")
                        if case .link(let k) = v {
                            expectedBacklinks[target, default: [:]]["\(k) \(c.name) \(p.name) \(key)", default: 0] += 1
                        }
                    case .list(let target), .set(let target):
                        guard case .list(let elements) = v else {
                            XCTFail("\(label): \(c.name).\(p.name) is not a list"); continue
                        }
                        let got = elements.map { e -> Int in
                            if case .link(let k) = e { return midFor(k, target) ?? -1 } else { return -2 }
                        }
                        if case .set = p.kind {
                            XCTAssertEqual(
                                MVal.list(got.sorted()),
                                { if case .list(let l) = want { return MVal.list(l.sorted()) } else { return want } }(),
                                "\(label): \(c.name)[\(mid)].\(p.name)")
                        } else {
                            XCTAssertEqual(MVal.list(got), want, "\(label): \(c.name)[\(mid)].\(p.name)")
                        }
                        for e in elements {
                            if case .link(let k) = e {
                                expectedBacklinks[target, default: [:]][
                                    "\(k) \(c.name) \(p.name) \(key)", default: 0] += 1
                            }
                        }
                    case .map(let target):
                        guard case .map(let entries) = v else {
                            XCTFail("\(label): \(c.name).\(p.name) is not a map"); continue
                        }
                        let got = entries.mapValues { e -> Int? in
                            if case .link(let k) = e { return midFor(k, target) ?? -1 } else { return nil }
                        }
                        XCTAssertEqual(MVal.map(got), want, "\(label): \(c.name)[\(mid)].\(p.name)")
                        for e in entries.values {
                            if case .link(let k) = e {
                                expectedBacklinks[target, default: [:]][
                                    "\(k) \(c.name) \(p.name) \(key)", default: 0] += 1
                            }
                        }
                    case .backlink(let origin, let originProperty):
                        // The LinkingObjects result: the origin objects whose property links here.
                        let keys = try txn.backlinks(to: t, key: key, from: origin, column: originProperty)
                        let got = Set(keys.compactMap { midOf[origin]?[$0] })
                        let want = Set(
                            (model.objects[origin] ?? [:]).compactMap { (om, ov) -> Int? in
                                switch ov[originProperty] {
                                case .link(let x?) where x == mid: om
                                case .list(let l) where l.contains(mid): om
                                case .map(let d) where d.values.contains(mid): om
                                default: nil
                                }
                            })
                        XCTAssertEqual(
                            got, want,
                            "\(label): \(c.name)[\(mid)].\(p.name) (LinkingObjects of \(origin).\(originProperty))")
                    }
                }
            }
        }
        // Backlink trees: exactly the links the rows hold, with their counts.
        for name in stored.keys {
            var got: [String: UInt32] = [:]
            try txn.forEach(tree: "b:" + name) { k, v in
                let target = Int64(
                    bitPattern: UInt64(bigEndian: k.loadUnaligned(as: UInt64.self)) ^ 0x8000_0000_0000_0000)
                let rest = Array(k[8...])
                let z1 = rest.firstIndex(of: 0)!, z2 = rest[(z1 + 1)...].firstIndex(of: 0)!
                let origin = rest[(z2 + 1)...].withUnsafeBytes {
                    Int64(bitPattern: UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) ^ 0x8000_0000_0000_0000)
                }
                got[
                    "\(target) \(String(decoding: rest[..<z1], as: UTF8.self)) \(String(decoding: rest[(z1 + 1)..<z2], as: UTF8.self)) \(origin)"
                ] = v.loadUnaligned(as: UInt32.self)
                return true
            }
            XCTAssertEqual(got, expectedBacklinks[name] ?? [:], "\(label): backlinks of \(name)")
        }
        // Indexes and primary keys: exactly one entry per object, for indexed columns only.
        let trees = try read.treeNames()
        for (name, t) in stored {
            var rows: [(Int64, [StoreValue])] = []
            try txn.forEachRow(t) { row in
                rows.append((row.key, row.values())); return true
            }
            let indexTrees = Set(trees.filter { $0.hasPrefix("i:\(name):") })
            // A missing tree reads as empty (trees are created by the first write that needs them).
            XCTAssertTrue(
                indexTrees.isSubset(of: t.indexTreeColumns.map { t.indexTree($0) }),
                "\(label): index trees of \(name): \(indexTrees.sorted())")
            for c in t.indexTreeColumns {
                var got: Set<[UInt8]> = []
                try txn.forEach(tree: t.indexTree(c)) { k, _ in
                    got.insert(Array(k)); return true
                }
                let want = Set(
                    rows.map { IndexKey.entry($0.1[c], objectKey: UInt64(bitPattern: $0.0) ^ 0x8000_0000_0000_0000) })
                XCTAssertEqual(got, want, "\(label): index \(name).\(t.columns[c].name)")
            }
            var pkEntries: [[UInt8]: Int64] = [:]
            try txn.forEach(tree: t.primaryKeyTree) { k, v in
                pkEntries[Array(k)] = Int64(bitPattern: v.loadUnaligned(as: UInt64.self)); return true
            }
            if let pk = t.primaryKeyColumn, !t.primaryKeyIsObjectKey {
                XCTAssertEqual(
                    pkEntries, Dictionary(uniqueKeysWithValues: rows.map { (IndexKey.encode($0.1[pk]), $0.0) }),
                    "\(label): primary keys of \(name)")
            } else {
                XCTAssertEqual(pkEntries.count, 0, "\(label): \(name) has no primary-key tree")
            }
            if !t.primaryKeyIsObjectKey, let maxKey = rows.map(\.0).max() {
                let counter =
                    try Array(name.utf8).withUnsafeBytes { try txn.get($0, tree: StoreTransaction.counterTree) }
                    .map { Int64(bitPattern: $0.loadUnaligned(as: UInt64.self)) } ?? 0
                XCTAssertGreaterThan(counter, maxKey, "\(label): the next object key of \(name) is past every object")
            }
        }
        // No trees of tables the file no longer has.
        for tree in trees {
            for prefix in ["c:", "p:", "b:", "o:"] where tree.hasPrefix(prefix) {
                XCTAssertNotNil(stored[String(tree.dropFirst(2))], "\(label): tree \(tree) belongs to no table")
            }
        }
    }
}

extension StoreTable {
    /// The columns that keep a secondary index tree.
    fileprivate var indexTreeColumns: [Int] { columns.indices.filter { columns[$0].hasIndexTree } }
}

typealias SplitMix = SeededRandom
