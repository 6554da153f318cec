// swift-tools-version:6.1
// Strata: a Swift embedded object database with Realm Swift's write and concurrency API (Swift
// throughout but for two small C targets: StrataPrefetchShim, a processor prefetch hint, and
// StrataThreadShim, the calling thread's id in a thread-local variable).
//
// Layers (dependencies point down only):
//   Strata (public API) -> StrataCore (object store) -> StrataStorage (paged file) -> StrataPOSIX (syscalls)
// The schema generator (StrataSchemaKit, strata-schema) depends on SwiftSyntax; nothing that users link does.
import PackageDescription

let package = Package(
    name: "Strata",
    // Synchronization's Atomic (macOS 15, iOS 18) keeps the hot flags free of generic metadata:
    // swift-atomics' ManagedAtomic is a generic class whose metadata is built at run time on first
    // use, about 0.5M instructions at every process's first system call (open_first_read).
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataStorage", targets: ["StrataStorage"]),
        .executable(name: "strata-schema", targets: ["strata-schema"]),
        // Strata's Logger to swift-log, for apps that log with swift-log (Sources/StrataLogging).
        .library(name: "StrataLogging", targets: ["StrataLogging"]),
        // Sync with PostgreSQL through postgres-nio (Sources/StrataSync, Docs/Sync.md): a product of
        // its own, so apps that do not sync never build postgres-nio.
        .library(name: "StrataSync", targets: ["StrataSync"]),
        // The command-line tool for any Strata file, without its models (Sources/StrataTool).
        .executable(name: "strata", targets: ["StrataTool"]),
        .plugin(name: "StrataPlugin", targets: ["StrataPlugin"]),
        .plugin(name: "StrataSchemaCommand", targets: ["StrataSchemaCommand"]),
        // Not API: the fuzz harness, for the strata-fuzz executable of the Fuzz package.
        .library(name: "_StrataFuzzKit", targets: ["StrataFuzzKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/apple/swift-atomics", exact: "1.3.0"),
        // Only the `strata` command-line tool uses it.
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // The StrataLogging bridge uses it (and StrataSync, for postgres-nio's logger).
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // Only StrataStorage uses it: the page cipher of encrypted files (AES-GCM, HKDF).
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        // Only StrataSync uses it: the PostgreSQL client of synced realms.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ],
    targets: [
        // MARK: Runtime (what users link)
        .target(name: "StrataPOSIX"),
        // One C header: the processor's prefetch hint for scans (Swift has no builtin for it).
        .target(name: "StrataPrefetchShim"),
        // The calling thread's id for the realms' thread checks (Swift has no thread-local variables).
        .target(name: "StrataThreadShim"),
        .target(
            name: "StrataStorage",
            dependencies: [
                "StrataPOSIX", "StrataPrefetchShim", .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The object store (tables, columnar clusters, indexes, backlinks, schema catalog) under the Realm API.
        .target(name: "StrataCore", dependencies: ["StrataStorage", "StrataQuery"]),
        .target(
            name: "Strata",
            dependencies: [
                "StrataStorage", "StrataCore", "StrataQuery", "StrataThreadShim",
                .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        // Parser for Realm's string query language (`filter("age > %@", 3)`); no dependencies.
        .target(name: "StrataQuery"),

        // The swift-log bridge: a product of its own, so apps that do not use swift-log never build it.
        .target(name: "StrataLogging", dependencies: ["Strata", .product(name: "Logging", package: "swift-log")]),

        // Sync with PostgreSQL: the outbox written in each local commit, the uploader and the
        // downloader, per-field last-writer-wins by hybrid logical clock.
        .target(
            name: "StrataSync",
            dependencies: [
                "Strata", "StrataCore", "StrataStorage", "StrataQuery",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Command-line tool
        // `strata`: schema, dump, import, verify, compact, stats, copy, upgrade. Works on the object
        // store's stored schema, so it needs no models. The target has another name than the
        // product: a module `strata` beside `Strata` would clash on case-insensitive file systems.
        .executableTarget(
            name: "StrataTool",
            dependencies: [
                "StrataCore", "StrataStorage", "StrataPOSIX",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Schema compiler (build time only)
        .target(
            name: "StrataSchemaKit",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        .executableTarget(name: "strata-schema", dependencies: ["StrataSchemaKit"]),
        .plugin(name: "StrataPlugin", capability: .buildTool(), dependencies: ["strata-schema"]),
        .plugin(
            name: "StrataSchemaCommand",
            capability: .command(
                intent: .custom(
                    verb: "strata-schema", description: "Record the current model schema in the schema history file"),
                permissions: [.writeToPackageDirectory(reason: "Writes the schema history file beside the models")]
            ),
            dependencies: ["strata-schema"]
        ),

        // MARK: Examples
        // The example app: the Dog / Person / DogToy models, compiled by StrataPlugin, written, queried,
        // updated and deleted in a Realm file.
        .executableTarget(
            name: "DoggoDB",
            dependencies: ["Strata"],
            path: "Examples/DoggoDB",
            plugins: [.plugin(name: "StrataPlugin")]
        ),

        // A terminal board of the dogs of a realm file: @ObservedResults, quick writes through
        // $-bindings, redrawn when another process writes (`swift run DoggoBoard [PATH]`).
        .executableTarget(
            name: "DoggoBoard",
            dependencies: ["Strata"],
            path: "Examples/DoggoBoard",
            plugins: [.plugin(name: "StrataPlugin")]
        ),

        // MARK: Test helpers
        // A writer process that crash tests kill with SIGKILL at random moments.
        // The crash workload, shared by the stress writer and the crash tests.
        .target(name: "StrataStressWorkload", path: "Sources/StrataStressWorkload"),
        .executableTarget(name: "strata-storage-stress", dependencies: ["StrataStorage", "StrataStressWorkload"]),
        // A process making grouped asynchronous commits through the Realm API, killed by the crash tests.
        .executableTarget(
            name: "strata-async-stress", dependencies: ["Strata"], plugins: [.plugin(name: "StrataPlugin")]),

        // MARK: Fuzzing
        // The fuzz harness (Fuzz/README.md): base files, the input script, the storage and Realm
        // checks. The libFuzzer executable is in the Fuzz package (a `--sanitize=fuzzer` build of
        // this package would also build strata-schema with libFuzzer, which its main cannot link
        // with). Its models' generated code is kept in Generated/ for the same reason;
        // StrataSchemaTests.GoldenFileTests checks it is current.
        .target(name: "StrataFuzzKit", dependencies: ["StrataStorage", "Strata"], path: "Fuzz/Sources/StrataFuzzKit"),

        // MARK: Tests
        // What the test targets share: the seeded generator, the temporary-directory test case,
        // a locked box, byte and key helpers.
        .target(name: "StrataTestSupport", dependencies: ["StrataStressWorkload"], path: "Tests/StrataTestSupport"),
        .testTarget(name: "StrataPOSIXTests", dependencies: ["StrataPOSIX", "StrataTestSupport"]),
        .testTarget(name: "StrataStorageTests", dependencies: ["StrataStorage", "StrataPOSIX", "StrataTestSupport"]),
        .testTarget(name: "StrataCoreTests", dependencies: ["StrataCore", "StrataTestSupport"]),
        // Kills real `strata-storage-stress` processes; finds the executable beside the test bundle.
        .testTarget(
            name: "StrataStorageCrashTests",
            dependencies: ["StrataStorage", "StrataPOSIX", "StrataStressWorkload", "StrataTestSupport"]),
        .testTarget(name: "StrataSchemaTests", dependencies: ["StrataSchemaKit"]),
        // Replays every input the fuzzer found a crash with (Fuzz/regressions).
        .testTarget(name: "StrataFuzzRegressionTests", dependencies: ["StrataFuzzKit", "Strata", "StrataStorage"]),
        .testTarget(name: "StrataQueryTests", dependencies: ["StrataQuery", "StrataTestSupport"]),
        // Models compiled with StrataPlugin; asserts on the generated schema and accessors at run time.
        .testTarget(
            name: "StrataSchemaIntegrationTests",
            dependencies: ["Strata", "StrataTestSupport"],
            plugins: [.plugin(name: "StrataPlugin")]
        ),
        .testTarget(
            name: "StrataLoggingTests",
            dependencies: ["StrataLogging", "Strata", .product(name: "Logging", package: "swift-log")]),
        // Runs the built `strata` executable against files written through the Realm API.
        .testTarget(
            name: "StrataToolTests",
            dependencies: ["Strata", "StrataStorage", "StrataCore"],
            plugins: [.plugin(name: "StrataPlugin")]
        ),
        // Synced realms against a real PostgreSQL server the tests start (initdb, pg_ctl) on loopback.
        .testTarget(
            name: "StrataSyncTests",
            dependencies: [
                "StrataSync", "Strata", "StrataTestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            plugins: [.plugin(name: "StrataPlugin")]
        ),
        // The Realm-style API end to end: models compiled with StrataPlugin, stored in real files.
        .testTarget(
            name: "StrataTests",
            dependencies: ["Strata", "StrataStorage", "StrataPOSIX", "StrataTestSupport"],
            plugins: [.plugin(name: "StrataPlugin")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// CI's ThreadSanitizer build (.ci/run sets STRATA_SANITIZER_SUBSET=1) needs only the targets of the
// test classes it runs (StrataTests, StrataStorageTests, StrataSyncTests) and what they launch
// (strata-async-stress): the other test targets (about 13,000 lines it never runs), the examples,
// the command-line tool and swift-argument-parser are left out of it.
if Context.environment["STRATA_SANITIZER_SUBSET"] == "1" {
    let kept: Set<String> = [
        // The libraries and the plugin the three test targets reach,
        "StrataPOSIX", "StrataPrefetchShim", "StrataThreadShim", "StrataStorage", "StrataCore", "StrataQuery",
        "Strata", "StrataSync", "StrataSchemaKit", "strata-schema", "StrataPlugin",
        // the process the notification tests start, and the tests with their support.
        "StrataStressWorkload", "strata-async-stress", "StrataTestSupport", "StrataStorageTests", "StrataSyncTests",
        "StrataTests",
    ]
    package.targets.removeAll { !kept.contains($0.name) }
    let keptProducts: Set<String> = ["Strata", "StrataStorage", "StrataSync", "strata-schema", "StrataPlugin"]
    package.products.removeAll { !keptProducts.contains($0.name) }
}
