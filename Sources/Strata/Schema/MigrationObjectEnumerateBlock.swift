/// The block `Migration.enumerateObjects(ofType:_:)` calls with each object: its values before
/// the migration (read-only) and the migrated object (writable); nil where the class is absent
/// from the old or the new schema.
public typealias MigrationObjectEnumerateBlock = (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) -> Void
