import StrataSchemaKit
import XCTest

/// Projection classes the generated code could not describe are reported at their declaration
/// with the fix.
final class ProjectionDiagnosticsTests: XCTestCase {
    private let person = """
        final class Person: Object {
            @Persisted var firstName = ""
            @Persisted var friends: List<Person>
        }

        """

    func testProjectedPropertyMustStartWithAPersistedProperty() {
        XCTAssertEqual(
            diagnostics(
                person + """
                    class PersonProjection: Projection<Person> {
                        @Projected(\\Person.description) var text
                        @Projected(\\Person.friends.projectTo.firstName) var friendNames: ProjectedCollection<String>
                    }
                    """),
            [
                "Models.swift:6:5: error: the projected property 'text' of 'PersonProjection' must read a persisted property of Person, but 'description' is not one; project one of its @Persisted properties (or a path starting with one)"
            ])
    }

    func testProjectedKeyPathMustBeALiteralWithItsRoot() {
        XCTAssertEqual(
            diagnostics(
                person + """
                    let path = \\Person.firstName
                    class PersonProjection: Projection<Person> {
                        @Projected(path) var first
                        @Projected(\\.firstName) var second
                    }
                    """),
            [
                "Models.swift:7:5: error: the projected property 'first' of 'PersonProjection' must name its key path as a literal with its root type, e.g. `@Projected(\\Person.first) var first`",
                "Models.swift:8:5: error: the projected property 'second' of 'PersonProjection' must name its key path as a literal with its root type, e.g. `@Projected(\\Person.second) var second`",
            ])
    }

    func testProjectionInsideAFunctionIsReported() {
        XCTAssertEqual(
            diagnostics(
                person + """
                    func make() {
                        class Local: Projection<Person> { @Projected(\\Person.firstName) var firstName }
                    }
                    """),
            [
                "Models.swift:6:5: error: projection class 'Local' is declared inside a function or closure, where the generated file cannot reach it; move `class Local: Projection<Person>` to the top level of its file"
            ])
    }

    func testGenericAndPrivateProjectionsAreReported() {
        XCTAssertEqual(
            diagnostics(
                person + """
                    class Generic<T>: Projection<Person> { @Projected(\\Person.firstName) var firstName }
                    private class Hidden: Projection<Person> { @Projected(\\Person.firstName) var firstName }
                    """),
            [
                "Models.swift:5:1: error: projection class 'Generic' is generic, but its list of projected properties is generated once per class; remove the generic parameters from `class Generic: Projection<Person>`",
                "Models.swift:6:1: error: projection class 'Hidden' is 'private', but the generated file must reach it; remove 'private' (or use 'internal')",
            ])
    }

    func testValidProjectionResolvesThePersistedPathItReads() throws {
        let schema = try resolve(
            person + """
                class PersonProjection: Projection<Person> {
                    @Projected(\\Person.firstName.localizedUppercase) var caps
                    @Projected(\\Person.friends.projectTo.firstName) var friendNames: ProjectedCollection<String>
                }
                """)
        XCTAssertEqual(schema.projections.map(\.qualifiedName), ["PersonProjection"])
        XCTAssertEqual(schema.projections[0].properties.map(\.label), ["caps", "friendNames"])
        XCTAssertEqual(schema.projections[0].properties.map(\.origin), ["firstName", "friends.firstName"])
    }
}
