import Foundation

// A migration object in a collection: the lists, sets and maps of links a migration block reads
// (`old!["dogs"] as! List<MigrationObject>`, and the live ones of new objects, which take new
// objects: `(new!["dogs"] as! List<MigrationObject>).append(migration.create("Dog"))`).

extension MigrationObject: RealmCollectionValue, _PersistableInsideOptional {
    /// Whether both stand for the same object of the same version (old or new) of one migration.
    public static func == (lhs: MigrationObject, rhs: MigrationObject) -> Bool {
        lhs === rhs
            || (lhs.migration === rhs.migration && lhs.isOld == rhs.isOld && lhs.className == rhs.className
                && lhs.key == rhs.key)
    }

    /// Hashes the class name, the object key and whether the object is old.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(className)
        hasher.combine(key)
        hasher.combine(isOld)
    }

    /// The new object as the object layer stores it in a link. An old object cannot be stored
    /// in the new version: that fails the migration with an error saying so.
    public var _strataPropertyValue: PropertyValue {
        guard !isOld, let binding else {
            realm.fail(
                Realm.Error(
                    .invalidValue,
                    "An old object of '\(className)' cannot be stored in the migrated file; store the new object (the newObject of enumerateObjects, or one migration.create returns)."
                ))
            return .null
        }
        return .object(realm.object(binding, key: key))
    }

    /// The new migration object standing for a managed object read inside a migration.
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> MigrationObject? {
        guard case .object(let object) = value, let state = object._strataManaged,
            let migration = Migration.active(in: state.realm)
        else { return nil }
        let binding = state.binding
        return MigrationObject(
            migration: migration, className: binding.className, table: binding.table, binding: binding,
            key: state.key, isOld: false)
    }
}
