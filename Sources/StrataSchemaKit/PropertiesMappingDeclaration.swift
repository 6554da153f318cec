/// `override class func propertiesMapping() -> [String: String]` as written: Swift property
/// name -> the name the property is stored under.
package struct PropertiesMappingDeclaration: Hashable, Sendable {
    package var entries: [(swiftName: String, storedName: String, location: SourceLocation)]
    package var location: SourceLocation
    /// Why the body could not be read (it must be a dictionary literal of string literals).
    package var problem: String?

    package static func == (a: Self, b: Self) -> Bool {
        a.location == b.location && a.problem == b.problem
            && a.entries.map { [$0.swiftName, $0.storedName] } == b.entries.map { [$0.swiftName, $0.storedName] }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(location)
        for entry in entries { hasher.combine(entry.swiftName); hasher.combine(entry.storedName) }
    }
}
