import Foundation

/// The schema history of one target: every recorded version of its models, with stable ids for
/// types and properties. Kept as `strata-schema.json` in the target's folder and committed.
///
/// Ids make renames explicit: a property that keeps its id under a new name was renamed (its data
/// moves), while a new id is an added property and a vanished id a removed one.
package struct SchemaHistory: Codable, Equatable, Sendable {
    /// Bump when the JSON shape changes; readers refuse newer formats.
    package static let currentFormatVersion = 1
    package static let fileName = "strata-schema.json"

    package var formatVersion: Int
    /// The next unused id (ids are never reused, even after a removal).
    package var nextId: Int
    package var versions: [Version]

    package init() {
        formatVersion = Self.currentFormatVersion
        nextId = 1
        versions = []
    }

    package struct Version: Codable, Equatable, Sendable {
        package var version: Int
        package var types: [TypeRecord]
    }

    package struct TypeRecord: Codable, Equatable, Sendable {
        package var id: Int
        package var name: String
        package var kind: ModelKind
        package var properties: [PropertyRecord]
    }

    package struct PropertyRecord: Codable, Equatable, Sendable {
        package var id: Int
        package var name: String
        package var type: StorageType
        package var swiftType: String
        package var optional: Bool
        package var collection: CollectionKind
        package var objectType: String?
        package var originProperty: String?
        package var primaryKey: Bool
        package var indexed: Bool
        package var defaultValue: String?

        /// What the stored data depends on (not the default, nor the Swift integer width).
        var storageShape: String {
            "\(collection.rawValue) \(type.rawValue)\(optional ? "?" : "") \(objectType ?? "") \(originProperty ?? "")"
        }

        var typeDescription: String { swiftType }
    }

    package var latest: Version? { versions.last }

    // MARK: Reading and writing

    package enum LoadError: Error, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case newerFormat(path: String, found: Int)

        package var description: String {
            switch self {
            case .unreadable(let path, let reason):
                "\(path):1:1: error: cannot read the schema history: \(reason); restore it from version control, or delete it to start a new history at version 0"
            case .newerFormat(let path, let found):
                "\(path):1:1: error: the schema history has format \(found) but this strata-schema reads format \(SchemaHistory.currentFormatVersion); update the Strata package"
            }
        }
    }

    package static func decode(_ data: Data, path: String) throws(LoadError) -> SchemaHistory {
        let history: SchemaHistory
        do {
            history = try JSONDecoder().decode(SchemaHistory.self, from: data)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        guard history.formatVersion <= currentFormatVersion else {
            throw .newerFormat(path: path, found: history.formatVersion)
        }
        return history
    }

    /// Deterministic JSON: sorted keys, two-space indentation, trailing newline.
    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain structs cannot fail; an empty file would be caught by the next read.
        var data = (try? encoder.encode(self)) ?? Data()
        data.append(0x0A)
        return data
    }

    // MARK: Recording

    /// Appends `schema` as a new version unless it matches the latest one.
    /// - Parameters:
    ///   - typeRenames: classes renamed since the latest version, new name -> old name (their
    ///     objects keep their type id, so the runtime renames the class with its data).
    ///   - version: the number of the new version (greater than the latest), recorded even when the
    ///     models did not change (a migration that only changes data); nil for the latest + 1.
    /// - Returns: whether a version was added.
    @discardableResult
    package mutating func record(
        _ schema: ResolvedSchema, typeRenames: [String: String] = [:], version: Int? = nil
    ) -> Bool {
        if let latest, version == nil, typeRenames.isEmpty, differences(from: latest, to: schema).isEmpty {
            return false
        }
        var types: [TypeRecord] = []
        for model in schema.models {
            let previous =
                latest?.types.first { $0.name == model.name }
                ?? typeRenames[model.name].flatMap { old in latest?.types.first { $0.name == old } }
            let typeId = previous?.id ?? takeId()
            var claimed = Set<Int>()
            // Same name first, so an `originalName` cannot steal the id of a property still present.
            var ids: [String: Int] = [:]
            for property in model.properties {
                if let same = previous?.properties.first(where: { $0.name == property.name }) {
                    ids[property.name] = same.id
                    claimed.insert(same.id)
                }
            }
            var properties: [PropertyRecord] = []
            for property in model.properties {
                var id = ids[property.name]
                if id == nil, let old = property.originalName,
                    let renamed = previous?.properties.first(where: { $0.name == old && !claimed.contains($0.id) })
                {
                    id = renamed.id
                    claimed.insert(renamed.id)
                }
                properties.append(Self.record(property, id: id ?? takeId()))
            }
            types.append(TypeRecord(id: typeId, name: model.name, kind: model.kind, properties: properties))
        }
        versions.append(Version(version: version ?? (latest?.version ?? 0) + 1, types: types))
        return true
    }

    /// Changes since `version` that the generator cannot record without the user's decision: in
    /// a class, a stored property gone and another new (a rename, or a removal and an addition?),
    /// or a class gone and another new. Each is an error at the new declaration that says what to
    /// write or run either way.
    package func decisionsNeeded(
        from version: Version, to schema: ResolvedSchema, targetName: String
    ) -> [SchemaDiagnostic] {
        var result: [SchemaDiagnostic] = []
        let command = SchemaCompiler.updateCommand(targetName: targetName)
        let modelNames = Set(schema.models.map(\.name))
        for model in schema.models {
            guard let type = version.types.first(where: { $0.name == model.name }) else { continue }
            let stored = type.properties.filter { $0.type != .linkingObjects }
            let claimedByOriginalName = Set(model.properties.compactMap(\.originalName))
            let gone = stored.filter { old in
                !model.properties.contains { $0.name == old.name } && !claimedByOriginalName.contains(old.name)
            }
            let new = model.properties.filter { p in
                p.type != .linkingObjects && !type.properties.contains { $0.name == p.name }
                    && !(p.originalName.map { o in type.properties.contains { $0.name == o } } ?? false)
            }
            guard let first = new.first, let old = gone.first else { continue }
            let goneList = gone.map { "'\(model.name).\($0.name)'" }.joined(separator: ", ")
            let newList = new.map { "'\(model.name).\($0.name)'" }.joined(separator: ", ")
            result.append(
                SchemaDiagnostic(
                    at: first.location,
                    "\(newList) \(new.count == 1 ? "is" : "are") new and \(goneList) \(gone.count == 1 ? "is" : "are") gone since schema version \(version.version) of \(SchemaHistory.fileName): a rename keeps the stored values, a removal drops them. To rename, write `@Persisted(originalName: \"\(old.name)\") var \(first.name)` and build; to remove and add, run `\(command)`"
                ))
        }
        let goneTypes = version.types.filter { !modelNames.contains($0.name) }
        let newModels = schema.models.filter { m in !version.types.contains { $0.name == m.name } }
        if let first = newModels.first, let old = goneTypes.first {
            result.append(
                SchemaDiagnostic(
                    at: first.location,
                    "class \(newModels.map { "'\($0.name)'" }.joined(separator: ", ")) \(newModels.count == 1 ? "is" : "are") new and class \(goneTypes.map { "'\($0.name)'" }.joined(separator: ", ")) \(goneTypes.count == 1 ? "is" : "are") gone since schema version \(version.version) of \(SchemaHistory.fileName): a rename keeps the objects, a removal leaves them in existing files (until a migration calls deleteData(forType:)). To rename, run `\(command) --rename-type \(old.name)=\(first.name)`; to remove and add, run `\(command)`"
                ))
        }
        return result
    }

    private mutating func takeId() -> Int {
        defer { nextId += 1 }
        return nextId
    }

    static func record(_ property: ResolvedProperty, id: Int) -> PropertyRecord {
        PropertyRecord(
            id: id, name: property.name, type: property.type, swiftType: property.swiftType,
            optional: property.isOptional, collection: property.collection,
            objectType: property.objectClassName, originProperty: property.linkOriginPropertyName,
            primaryKey: property.isPrimaryKey, indexed: property.isIndexed, defaultValue: property.defaultValue)
    }

    // MARK: Comparing

    /// Human-readable differences between a recorded version and the current declarations, in
    /// a stable order; empty when the declarations need no new version.
    package func differences(from version: Version, to schema: ResolvedSchema) -> [String] {
        var result: [String] = []
        let current = Dictionary(schema.models.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for type in version.types where current[type.name] == nil {
            result.append("\(type.name) was removed")
        }
        for model in schema.models {
            guard let type = version.types.first(where: { $0.name == model.name }) else {
                result.append("\(model.name) was added")
                continue
            }
            if type.kind != model.kind {
                result.append("\(model.name) changed from \(type.kind.rawValue) to \(model.kind.rawValue)")
            }
            // A new property whose `originalName` names a vanished one is that property renamed.
            var renamedTo: [String: String] = [:]
            for property in model.properties where !type.properties.contains(where: { $0.name == property.name }) {
                if let o = property.originalName, type.properties.contains(where: { $0.name == o }),
                    !model.properties.contains(where: { $0.name == o })
                {
                    renamedTo[o] = property.name
                }
            }
            for old in type.properties where !model.properties.contains(where: { $0.name == old.name }) {
                if let new = renamedTo[old.name] {
                    result.append("\(model.name).\(old.name) was renamed to \(new)")
                } else {
                    result.append("\(model.name).\(old.name) was removed")
                }
            }
            for property in model.properties {
                let new = Self.record(property, id: 0)
                guard
                    let old = type.properties.first(where: { $0.name == property.name })
                        ?? type.properties.first(where: { renamedTo[$0.name] == property.name })
                else {
                    result.append("\(model.name).\(property.name) was added")
                    continue
                }
                if old.storageShape != new.storageShape {
                    result.append(
                        "\(model.name).\(property.name) changed type from \(old.swiftType) to \(new.swiftType)")
                }
                if old.primaryKey != new.primaryKey {
                    result.append(
                        "\(model.name).\(property.name) \(new.primaryKey ? "became" : "is no longer") the primary key")
                }
                if old.indexed != new.indexed {
                    result.append("\(model.name).\(property.name) \(new.indexed ? "became" : "is no longer") indexed")
                }
            }
        }
        return result
    }

    // MARK: Migration steps

    /// The steps that turn data of version `from` into data of version `to`, matched by id.
    package static func migrationSteps(from old: Version, to new: Version) -> [MigrationStepRecord] {
        var steps: [MigrationStepRecord] = []
        let oldTypes = Dictionary(old.types.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let newIds = Set(new.types.map(\.id))
        for type in old.types where !newIds.contains(type.id) {
            steps.append(.removeType(type.name))
        }
        for type in new.types {
            guard let previous = oldTypes[type.id] else {
                steps.append(.addType(type.name))
                continue
            }
            if previous.name != type.name { steps.append(.renameType(from: previous.name, to: type.name)) }
            let oldProperties = Dictionary(previous.properties.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let newPropertyIds = Set(type.properties.map(\.id))
            for property in previous.properties where !newPropertyIds.contains(property.id) {
                steps.append(.removeProperty(type: type.name, property: property.name))
            }
            for property in type.properties {
                guard let before = oldProperties[property.id] else {
                    steps.append(
                        .addProperty(type: type.name, property: property.name, defaultValue: property.defaultValue))
                    continue
                }
                if before.name != property.name {
                    steps.append(.renameProperty(type: type.name, from: before.name, to: property.name))
                }
                if before.storageShape != property.storageShape {
                    // Only optionality changes convert by themselves: nil becomes the default, a value stays.
                    let sameValues =
                        before.type == property.type && before.collection == property.collection
                        && before.objectType == property.objectType && before.originProperty == property.originProperty
                    steps.append(
                        .changePropertyType(
                            type: type.name, property: property.name,
                            from: before.swiftType, to: property.swiftType, needsUserCode: !sameValues))
                }
                if before.primaryKey != property.primaryKey {
                    steps.append(
                        .changePrimaryKey(type: type.name, property: property.name, isPrimaryKey: property.primaryKey))
                }
                if before.indexed != property.indexed {
                    steps.append(
                        property.indexed
                            ? .addIndex(type: type.name, property: property.name)
                            : .removeIndex(type: type.name, property: property.name))
                }
            }
        }
        return steps
    }
}
