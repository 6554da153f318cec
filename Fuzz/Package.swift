// swift-tools-version:6.1
// strata-fuzz: a libFuzzer target over Strata's file decoder, open path and Realm API
// (Fuzz/README.md). A separate package, like Benchmarks/: a `--sanitize=fuzzer` build builds
// every tool of the package graph with libFuzzer, and the root package's schema generator
// (SwiftSyntax) could not link with it and would take minutes to build; from here only the
// runtime libraries are built.
//
//   swift build --package-path Fuzz --sanitize=fuzzer \
//       -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table -Xswiftc -DSTRATA_FUZZING \
//       --scratch-path .build-fuzz --product strata-fuzz
import PackageDescription

let package = Package(
    name: "StrataFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Strata", path: ".."),
    ],
    targets: [
        // The harness itself (StrataFuzzKit) is in the root package, where the regression tests
        // replay the inputs that once crashed it.
        .executableTarget(
            name: "strata-fuzz",
            dependencies: [.product(name: "_StrataFuzzKit", package: "Strata")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
