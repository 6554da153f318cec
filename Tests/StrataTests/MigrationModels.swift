import Strata

// Generated models for the migration tests whose older versions are written by hand in the test
// files (same `strataObjectSchema.className`, other properties).

/// The child: `name` was renamed to `title` (MigrationBacklinkTests).
class MigChild: Object {
    @Persisted var title = ""
    @Persisted(originProperty: "kids") var parents: LinkingObjects<MigParent>
}

/// The parent, unchanged between versions.
class MigParent: Object {
    @Persisted var kids: List<MigChild>
    @Persisted var favorite: MigChild?
}
