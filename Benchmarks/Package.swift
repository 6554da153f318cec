// swift-tools-version:6.1
// The Strata benchmark. A separate package so that users of Strata never resolve the benchmark's
// dependencies (the peer engines it measures against).
//
//   swift run -c release --package-path Benchmarks strata-bench storage --n 1000000
import PackageDescription

let package = Package(
    name: "StrataBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Strata", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "strata-bench",
            dependencies: [
                .product(name: "StrataStorage", package: "Strata"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
