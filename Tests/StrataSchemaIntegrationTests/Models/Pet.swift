import Strata

/// Version 2 of Pet: `nick` renamed to `nickname`, `age` changed from String to Int, `phone`
/// removed and `tags` added since version 1 (see strata-schema.json).
final class Pet: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted(originProperty: "pets") var owners: LinkingObjects<Owner>
    @Persisted(originalName: "nick") var nickname = ""
    @Persisted var age = 0
    @Persisted var tags: MutableSet<String>
}
