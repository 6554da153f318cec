import XCTest
import StrataQuery
@testable import StrataCore

/// Queries that do not fit the schema or their arguments throw a `StoreQueryError` that names the
/// property and type and says what to do, and never trap, whatever the predicate.
final class QueryErrorTests: QueryTestCase {
    let people = StoreTable(name: "Person", columns: [StoreColumn(name: "name", type: .string)])
    let dogs = StoreTable(
        name: "Dog",
        columns: [
            StoreColumn(name: "name", type: .string),
            StoreColumn(name: "age", type: .int),
            StoreColumn(name: "isGood", type: .bool),
            StoreColumn(name: "owner", type: .link, isNullable: true, targetTable: "Person"),
            StoreColumn(name: "toys", type: .link, collection: .list, targetTable: "Person"),
            StoreColumn(name: "tags", type: .string, collection: .list),
            StoreColumn(name: "photo", type: .data),
            StoreColumn(name: "ghost", type: .link, isNullable: true, targetTable: "Ghost"),
            StoreColumn(name: "price", type: .decimal128),
            StoreColumn(name: "born", type: .timestamp),
        ])

    override func setUpWithError() throws {
        try super.setUpWithError()
        try create(people, dogs)
        let p = try insert(people, [[.string("Ann")]])
        try insert(
            dogs,
            [
                [
                    .string("Rex"), .int(3), .bool(true), .link(p[0]), .list([.link(p[0])]), .list([.string("a")]),
                    .data([1]), .null, .decimal128([UInt8](repeating: 0, count: 16)), date(0),
                ]
            ])
    }

    func error(
        _ filter: String, _ arguments: [StoreValue] = [], file: StaticString = #filePath, line: UInt = #line
    ) throws -> StoreQueryError? {
        try queryError(try StoreQuery(filter, arguments: arguments), dogs, file: file, line: line)
    }

    func testUnknownPropertiesAndBrokenKeyPaths() throws {
        XCTAssertEqual(try error("nme == 'x'"), .unknownProperty(table: "Dog", property: "nme", keyPath: "nme"))
        XCTAssertEqual(
            try error("nme == 'x'")?.description,
            "Property 'nme' not found in object of type 'Dog'; check the spelling, or add the property to the model.")
        XCTAssertEqual(
            try error("owner.nme == 'x'"), .unknownProperty(table: "Person", property: "nme", keyPath: "owner.nme"))
        XCTAssertEqual(try error("name.first == 'x'"), .notALink(table: "Dog", property: "name", keyPath: "name.first"))
        XCTAssertEqual(try error("ghost.name == 'x'"), .unknownTable(table: "Ghost", keyPath: "ghost.name"))
        XCTAssertEqual(
            try error("toys.@avg.nme > 1"), .unknownProperty(table: "Person", property: "nme", keyPath: "toys.@avg.nme")
        )
    }

    func testOperatorsThatDoNotFitTheType() throws {
        XCTAssertEqual(
            try error("age BEGINSWITH 'x'"), .invalidOperator(keyPath: "age", type: "int", operator: "BEGINSWITH"))
        XCTAssertEqual(
            try error("age BEGINSWITH 'x'")?.description,
            "Operator 'BEGINSWITH' cannot be used with 'age', which holds int values; BEGINSWITH works only on string and data properties."
        )
        XCTAssertEqual(try error("isGood > false"), .invalidOperator(keyPath: "isGood", type: "bool", operator: ">"))
        XCTAssertEqual(try error("age ==[c] 3"), .invalidOperator(keyPath: "age", type: "int", operator: "[c]"))
        XCTAssertEqual(
            try error("owner < %@", [.link(0)]),
            .invalidOperator(keyPath: "owner", type: "'Person' object", operator: "<"))
        XCTAssertEqual(
            try error("photo LIKE %@", [.data([1])]), .invalidOperator(keyPath: "photo", type: "data", operator: "LIKE")
        )
        XCTAssertEqual(
            try error("price BEGINSWITH %@", [.decimal128(StoreDecimal(1).bytes)]),
            .invalidOperator(keyPath: "price", type: "Decimal128", operator: "BEGINSWITH"))
        XCTAssertEqual(
            try error("age BETWEEN {'a', 'b'}"),
            .typeMismatch(keyPath: "age", type: "int", found: "string", source: "the constant 'a'"))
    }

    func testConstantsAndArgumentsOfTheWrongType() throws {
        XCTAssertEqual(
            try error("age == 'x'"),
            .typeMismatch(keyPath: "age", type: "int", found: "string", source: "the constant 'x'"))
        XCTAssertEqual(
            try error("name == 3"),
            .typeMismatch(keyPath: "name", type: "string", found: "int", source: "the constant 3"))
        XCTAssertEqual(
            try error("born > %@", [.int(0)]),
            .typeMismatch(keyPath: "born", type: "date", found: "int", source: "argument 0"))
        XCTAssertEqual(
            try error("owner == %@", [.typedLink(table: "Dog", key: 0)]),
            .typeMismatch(keyPath: "owner", type: "'Person' object", found: "'Dog' object", source: "argument 0"))
        XCTAssertEqual(
            try error("age == %@", [.list([.int(1)])]),
            .typeMismatch(keyPath: "age", type: "int", found: "list", source: "argument 0"))
        XCTAssertEqual(
            try error("age IN {1, 'x'}"),
            .typeMismatch(keyPath: "age", type: "int", found: "string", source: "the constant 'x'"))
        XCTAssertEqual(
            try error("age IN %@", [.list([.int(1), .bool(true)])]),
            .typeMismatch(keyPath: "age", type: "int", found: "bool", source: "element 1 of argument 0"))
        XCTAssertEqual(
            try error("age > name"), .typeMismatch(keyPath: "age", type: "int", found: "string", source: "'name'"))
        // Argument values are user data: their kinds are named, never their contents.
        let message = try error("age == %@", [.string("secret-value")])?.description ?? ""
        XCTAssertFalse(message.contains("secret-value"), message)
        XCTAssertTrue(message.contains("argument 0") && message.contains("string"), message)
    }

    func testNilAgainstNonOptionalPropertiesAndOrderedOperators() throws {
        XCTAssertEqual(try error("age == nil"), .nullNotAllowed(keyPath: "age", type: "int"))
        XCTAssertEqual(
            try error("age == nil")?.description,
            "'age' is a non-optional int property and is never nil; remove the nil comparison, or declare the property optional."
        )
        XCTAssertEqual(try error("ANY tags == nil"), .nullNotAllowed(keyPath: "tags", type: "string"))
        XCTAssertEqual(
            try error("age > %@", [.null]),
            .typeMismatch(keyPath: "age", type: "int", found: "null", source: "argument 0"))
        XCTAssertEqual(try keys(dogs, "owner == nil"), [], "links are optional")
        XCTAssertEqual(try keys(dogs, "owner.name == nil"), [], "a path through a to-one link can be null")
    }

    func testArgumentShapesAndCounts() throws {
        XCTAssertEqual(
            try error("age IN %@", [.int(3)]),
            .invalidArgument(index: 0, expected: "a list of values for IN", found: "int"))
        XCTAssertEqual(
            try error("age BETWEEN %@", [.list([.int(1), .int(2), .int(3)])]),
            .invalidArgument(
                index: 0, expected: "a list of two values (low, high) for BETWEEN", found: "list of 3 values"))
        XCTAssertEqual(
            try error("%K == 1", [.int(3)]),
            .invalidArgument(index: 0, expected: "a key path string such as \"owner.name\" for %K", found: "int"))
        XCTAssertEqual(
            try error("%K == 1", [.string("toys.@bogus")]),
            .invalidArgument(
                index: 0, expected: "a key path string such as \"owner.name\" for %K",
                found: "string that is not a key path"))
        XCTAssertEqual(
            try error("%K == 1", [.string("owner..name")])?.description,
            "Argument 0 is a string that is not a key path, but the query needs a key path string such as \"owner.name\" for %K there."
        )
        XCTAssertEqual(
            try error("age IN %@", [.int(3)])?.description,
            "Argument 0 is an int, but the query needs a list of values for IN there.")
        XCTAssertEqual(
            try error("age == 'x'")?.description,
            "Cannot compare 'age' (int) with the constant 'x' of type string; pass a value of the property's type.")
        XCTAssertEqual(
            try error("age > %@", [.null])?.description,
            "Cannot compare 'age' (int) with nil (argument 0) by an ordering or string operator; only == and != compare with nil."
        )
        let predicate = try ParsedQuery.parse("age > %@ AND name == %@").predicate
        XCTAssertEqual(
            try queryError(StoreQuery(predicate: predicate, arguments: [.int(1)]), dogs),
            .wrongArgumentCount(expected: 2, given: 1))
        XCTAssertEqual(
            try queryError(StoreQuery(predicate: predicate, arguments: [.int(1), .string("a"), .null]), dogs),
            .wrongArgumentCount(expected: 2, given: 3))
        XCTAssertEqual(
            StoreQueryError.wrongArgumentCount(expected: 2, given: 1).description,
            "The query expects 2 arguments, got 1; pass one argument for each %@ or $n placeholder.")
        XCTAssertThrowsError(try StoreQuery("age > %@")) { error in
            guard case .syntax(let parseError)? = error as? StoreQueryError else { return XCTFail("\(error)") }
            XCTAssertEqual(parseError.kind, .wrongArgumentCount(expected: 1, given: 0))
        }
        XCTAssertThrowsError(try StoreQuery("age >")) { error in
            guard case .syntax? = error as? StoreQueryError else { return XCTFail("\(error)") }
        }
    }

    func testQuantifiersAndAggregatesThatDoNotFit() throws {
        XCTAssertEqual(
            try error("ANY name == 'x'"),
            .invalidQuantifier(
                keyPath: "name", quantifier: "ANY",
                reason:
                    "the key path after ANY must go through a list, set, map or LinkingObjects property; remove ANY to compare a single value"
            ))
        XCTAssertEqual(
            try error("ALL owner.name == 'x'")?.description.hasPrefix("ALL cannot be used with 'owner.name'"), true)
        if case .invalidQuantifier(_, "list comparison", _)? = try error("ANY toys.name == tags") {
        } else {
            XCTFail("two lists")
        }
        if case .invalidAggregate("age.@count", "@count", _)? = try error("age.@count > 1") {
        } else {
            XCTFail("@count on int")
        }
        if case .invalidAggregate("tags.@avg", "@avg", _)? = try error("tags.@avg > 1") {
        } else {
            XCTFail("@avg on strings")
        }
        if case .invalidAggregate("toys.@sum", "@sum", _)? = try error("toys.@sum > 1") {
        } else {
            XCTFail("@sum without a property")
        }
        if case .invalidAggregate("tags.@max.x", "@max", _)? = try error("tags.@max.x > 1") {
        } else {
            XCTFail("property of a string")
        }
        if case .invalidAggregate("toys.@avg.name", "@avg", _)? = try error("toys.@avg.name > 1") {
        } else {
            XCTFail("@avg of strings")
        }
        XCTAssertEqual(
            try error("toys.@sum > 1")?.description,
            "@sum cannot be used with 'toys.@sum': the elements are objects; name the property to aggregate, e.g. toys.@sum.age."
        )
    }

    func testSortAndDistinctKeyPaths() throws {
        if case .invalidSortKeyPath("toys.name", _)? = try queryError(StoreQuery().sorted(by: "toys.name"), dogs) {
        } else {
            XCTFail("list")
        }
        if case .invalidSortKeyPath("tags", _)? = try queryError(StoreQuery().sorted(by: "tags"), dogs) {
        } else {
            XCTFail("list of values")
        }
        if case .invalidSortKeyPath("toys.@count", _)? = try queryError(
            StoreQuery().distinct(by: ["toys.@count"]), dogs)
        {
        } else {
            XCTFail("@count")
        }
        if case .invalidSortKeyPath("", _)? = try queryError(StoreQuery().sorted(by: ""), dogs) {
        } else {
            XCTFail("empty")
        }
        XCTAssertEqual(
            try queryError(StoreQuery().sorted(by: "owner.nme"), dogs),
            .unknownProperty(table: "Person", property: "nme", keyPath: "owner.nme"))
    }

    func testHandBuiltPredicatesThatTheParserNeverProducesAreRejected() throws {
        var deep = QueryPredicate.truePredicate
        for _ in 0...StoreQuery.maximumDepth { deep = .not(deep) }
        if case .unsupported? = try queryError(StoreQuery(predicate: deep), dogs) {} else { XCTFail("too deep") }
        var ok = QueryPredicate.truePredicate
        for _ in 0..<StoreQuery.maximumDepth { ok = .not(ok) }
        XCTAssertEqual(try run(StoreQuery(predicate: ok), dogs), [0])

        let nested = QueryPredicate.comparison(QueryComparison(.keyPath(["age"]), .in, .list([.list([])])))
        if case .unsupported? = try queryError(StoreQuery(predicate: nested), dogs) {} else { XCTFail("nested list") }
        let negative = QueryPredicate.comparison(QueryComparison(.keyPath(["age"]), .equal, .argument(index: -1)))
        if case .unsupported? = try queryError(StoreQuery(predicate: negative), dogs) {
        } else {
            XCTFail("negative index")
        }
        let empty = QueryPredicate.comparison(QueryComparison(.keyPath([]), .equal, .literal(.int(1))))
        XCTAssertEqual(
            try queryError(StoreQuery(predicate: empty), dogs),
            .unknownProperty(table: "Dog", property: "", keyPath: ""))
        let between = QueryPredicate.comparison(
            QueryComparison(.keyPath(["age"]), .between, .list([.literal(.int(1))])))
        if case .unsupported? = try queryError(StoreQuery(predicate: between), dogs) {
        } else {
            XCTFail("BETWEEN with one value")
        }
        let listLeft = QueryPredicate.comparison(QueryComparison(.list([]), .equal, .keyPath(["age"])))
        if case .unsupported? = try queryError(StoreQuery(predicate: listLeft), dogs) {
        } else {
            XCTFail("list on the left")
        }
    }

    /// Random hand-built predicates (operands, operators, options and quantifiers in any
    /// combination, most of them meaningless) either evaluate or throw a `StoreQueryError`.
    func testRandomPredicatesNeverTrap() throws {
        var rng = QueryRandom(seed: 42)
        let paths: [[String]] = [
            ["name"], ["age"], ["isGood"], ["owner"], ["owner", "name"], ["toys"], ["toys", "name"],
            ["tags"], ["photo"], ["ghost"], ["price"], ["born"], ["nope"], ["name", "x"], [],
        ]
        let aggregates: [QueryAggregate?] = [
            nil, nil, nil, .count, .size, .min(nil), .max("name"), .sum(nil), .avg("name"), .avg("x"),
        ]
        let literals: [QueryLiteral] = [
            .int(1), .double(.nan), .double(-0.0), .string(""), .string("Rex"), .bool(true), .null, .int(.min),
        ]
        let arguments: [StoreValue] = [
            .int(3), .string("toys.@count"), .list([.int(1), .null]), .link(0), .typedLink(table: "Dog", key: 0),
            .data([]), .double(.infinity), .map([:]), .list([]), date(-1), .string("owner.name"),
        ]
        func operand(_ depth: Int = 0) -> QueryOperand {
            switch Int.random(in: 0..<7, using: &rng) {
            case 0, 1, 6:
                let aggregate = Int.random(in: 0..<4, using: &rng) == 0 ? aggregates.randomElement(using: &rng)! : nil
                return .keyPath(paths.randomElement(using: &rng)!, aggregate: aggregate)
            case 2: return .literal(literals.randomElement(using: &rng)!)
            case 3: return .argument(index: Int.random(in: -1..<arguments.count + 1, using: &rng))
            case 4: return .keyPathArgument(index: Int.random(in: 0..<arguments.count, using: &rng))
            default:
                return depth > 1
                    ? .list([]) : .list((0..<Int.random(in: 0..<4, using: &rng)).map { _ in operand(depth + 1) })
            }
        }
        var outcomes = (evaluated: 0, rejected: 0)
        for _ in 0..<5000 {
            let comparison = QueryComparison(
                operand(), QueryOperator.allCases.randomElement(using: &rng)!, operand(),
                options: [
                    [], [], [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
                ].randomElement(using: &rng)!,
                quantifier: [nil, nil, nil, .any, .all, .noElement].randomElement(using: &rng)!)
            let predicate: QueryPredicate =
                Bool.random(using: &rng)
                ? .comparison(comparison) : .not(.or([.comparison(comparison), .falsePredicate]))
            let needed = StoreQuery.argumentCount(predicate)
            var query = StoreQuery(
                predicate: predicate, arguments: (0..<needed).map { $0 < arguments.count ? arguments[$0] : .int(0) })
            if Int.random(in: 0..<4, using: &rng) == 0 {
                query = query.sorted(by: ["name", "age", "owner.name", "tags", "x"].randomElement(using: &rng)!)
            }
            do {
                _ = try read { try query.evaluate(in: $0, table: dogs) }
                outcomes.evaluated += 1
            } catch let error as StoreQueryError {
                XCTAssertFalse(error.description.isEmpty)
                outcomes.rejected += 1
            }
        }
        print("random predicates: \(outcomes.evaluated) evaluated, \(outcomes.rejected) rejected")
        XCTAssertGreaterThan(outcomes.evaluated, 0)
        XCTAssertGreaterThan(outcomes.rejected, 0)
    }
}

typealias QueryRandom = SeededRandom
