// swift-tools-version:6.1
// The Strata benchmark. A separate package so that users of Strata never resolve the benchmark's
// dependencies (the peer engines it measures against).
//
//   swift run -c release --package-path Benchmarks strata-bench storage --n 1000000
//   swift run -c release --package-path Benchmarks strata-bench w1 --n 1000000 --engine all
import PackageDescription

let package = Package(
    name: "StrataBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Strata", path: ".."),
        // The peer engine W1 compares against (SQLite through GRDB, WAL, synchronous=FULL).
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "strata-bench",
            dependencies: [
                .product(name: "StrataStorage", package: "Strata"),
                .product(name: "Strata", package: "Strata"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // Generates the schema and accessors of the `strata` engine's model (W1Models.swift).
            plugins: [.plugin(name: "StrataPlugin", package: "Strata")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
