// swift-tools-version:6.1
// The Strata benchmark. A separate package so that users of Strata never resolve the benchmark's
// dependencies (the peer engines it measures against).
//
//   swift run -c release --package-path Benchmarks strata-bench storage --n 1000000
//   swift run -c release --package-path Benchmarks strata-bench w1 --n 1000000 --engine all
//   swift run -c release --package-path Benchmarks strata-bench sync --n 100000
import PackageDescription

let package = Package(
    name: "StrataBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Strata", path: ".."),
        // The peer engine W1 compares against (SQLite through GRDB, WAL, synchronous=FULL).
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // `strata-bench sync`'s baseline: the same rows as bare batched INSERTs (the version
        // StrataSync uses).
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ],
    targets: [
        .executableTarget(
            name: "strata-bench",
            dependencies: [
                .product(name: "StrataStorage", package: "Strata"),
                .product(name: "Strata", package: "Strata"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "StrataSync", package: "Strata"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            // Generates the schema and accessors of the benchmark's models (W1Models.swift,
            // SyncBenchPerson.swift).
            plugins: [.plugin(name: "StrataPlugin", package: "Strata")]
        )
    ],
    swiftLanguageModes: [.v6]
)
