// swift-tools-version:6.1
import PackageDescription

// storekeeper-server: the server half of Storekeeper, a package of its own so
// that an app depending on Storekeeper never resolves the server's
// dependencies. It depends on the main package by path.
//
// - Sources/StorekeeperVerification: App Store signed data (JWS, x5c chain to
//   Apple's root, Apple's marker OIDs, bundle, environment, app id).
// - Sources/StorekeeperServerStorage: what the server keeps per user (ledger,
//   balances, spends, records, notifications), on SQLite (GRDB, the default)
//   or PostgreSQL (postgres-nio), behind one protocol.
// - Sources/storekeeper-server-benchmark: verifications per second against
//   Apple's Python library on the same payloads.

/// Imports that say what they expose, as in the main package: an `import` is internal unless written
/// `public import` (so a target's public API names only what it means to), and a member is used only
/// from a module the file imports itself.
let honestImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"), .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "storekeeper-server",
    // Hummingbird 2 needs macOS 14 and swift-configuration macOS 15; the server runs on Linux here.
    platforms: [.macOS(.v15)],
    products: [
        // Verifying StoreKit 2 transactions, renewal info and App Store Server Notifications V2.
        .library(name: "StorekeeperVerification", targets: ["StorekeeperVerification"]),
        // The server's storage: one protocol, SQLite and PostgreSQL.
        .library(name: "StorekeeperServerStorage", targets: ["StorekeeperServerStorage"]),
    ],
    dependencies: [
        .package(name: "storekeeper", path: ".."),
        // The same swift-crypto range as the main package's, so both resolve to one version.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The executable: its commands, configuration (flags, environment, a JSON file; not the YAML
        // provider, which would bring a second libyaml), HTTP serving, metrics, graceful shutdown.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        // FilePath, which swift-configuration's FileProvider takes (swift-configuration depends on it too).
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Receipts forwarded to the App Store; the executable's tests and the load program (keep-alive HTTP).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        // The signed-data verifier: JWS ES256, the x5c chain (swift-certificates), the payloads' types.
        .target(
            name: "StorekeeperVerification",
            dependencies: [
                .product(name: "StorekeeperContract", package: "storekeeper"),
                .product(name: "StorekeeperJSON", package: "storekeeper"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            // Apple Root CA - G3, the default trusted root.
            resources: [.copy("Resources/AppleRootCA-G3.cer")],
            swiftSettings: honestImports
        ),
        // Verifications per second, in process, against Apple's Python library on the same payloads.
        .executableTarget(
            name: "storekeeper-server-benchmark",
            dependencies: [
                "StorekeeperVerification",
                .product(name: "StorekeeperTestChain", package: "storekeeper"),
                .product(name: "StorekeeperChildProcess", package: "storekeeper"),
                .product(name: "StorekeeperSimulatedStore", package: "storekeeper"),
                .product(name: "StorekeeperJSON", package: "storekeeper"),
            ],
            exclude: ["time_verifier.py"],
            swiftSettings: honestImports
        ),
        // Decisions compared case by case with Apple's App Store Server Library (Python) as the oracle.
        .testTarget(
            name: "StorekeeperVerificationTests",
            dependencies: [
                .product(name: "StorekeeperContract", package: "storekeeper"),
                "StorekeeperVerification",
                .product(name: "StorekeeperTestChain", package: "storekeeper"),
                .product(name: "StorekeeperChildProcess", package: "storekeeper"),
                .product(name: "StorekeeperJSON", package: "storekeeper"),
                .product(name: "StorekeeperCore", package: "storekeeper"),
                .product(name: "StorekeeperSimulatedStore", package: "storekeeper"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: honestImports
        ),
        // The ledger's storage: LedgerStorage and SQLLedgerStorage, on SQLite (GRDB) or PostgreSQL (postgres-nio).
        .target(
            name: "StorekeeperServerStorage",
            dependencies: [
                // RefundedSpendPolicy: the catalog's word on refunds of spent balances, kept with each grant.
                .product(name: "StorekeeperCore", package: "storekeeper"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: honestImports
        ),
        // One suite, parameterized over both backends, against SQLite and a real PostgreSQL.
        .testTarget(
            name: "StorekeeperServerStorageTests",
            dependencies: [
                "StorekeeperServerStorage",
                "StorekeeperServerTestSupport",
                .product(name: "StorekeeperCore", package: "storekeeper"),
            ],
            swiftSettings: honestImports
        ),
        // The server: what verified transactions, records and notifications do to the ledger, and its routes.
        .target(
            name: "StorekeeperServer",
            dependencies: [
                .product(name: "StorekeeperContract", package: "storekeeper"),
                "StorekeeperVerification",
                "StorekeeperServerStorage",
                .product(name: "StorekeeperRuntime", package: "storekeeper"),
                .product(name: "StorekeeperCore", package: "storekeeper"),
                .product(name: "StorekeeperJSON", package: "storekeeper"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                // NIOThreadPool: content files are read off the concurrency pool.
                .product(name: "NIOPosix", package: "swift-nio"),
                // Receipts/: forwarding receipts to the App Store's verifyReceipt.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                // HTTPResponseStatus, the status of AsyncHTTPClient's responses.
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: honestImports
        ),
        // The routes, handler by handler, each test against SQLite and PostgreSQL.
        .testTarget(
            name: "StorekeeperServerTests",
            dependencies: [
                .product(name: "StorekeeperContract", package: "storekeeper"),
                "StorekeeperServer",
                "StorekeeperServerTestSupport",
                "StorekeeperVerification",
                "StorekeeperServerStorage",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "StorekeeperTestChain", package: "storekeeper"),
                .product(name: "StorekeeperSimulatedStore", package: "storekeeper"),
                .product(name: "StorekeeperRuntime", package: "storekeeper"),
                .product(name: "StorekeeperCore", package: "storekeeper"),
                .product(name: "StorekeeperJSON", package: "storekeeper"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                // Lives/: the App Store model's random lives through the server (StorekeeperServerLives).
                "StorekeeperServerLives",
                .product(name: "StorekeeperStoreModel", package: "storekeeper"),
                // EndToEnd/: the app's queue talking to the server over HTTP.
                .product(name: "StorekeeperQueue", package: "storekeeper"),
                .product(name: "StorekeeperHTTP", package: "storekeeper"),
                // The fake App Store the receipt forwarder is tested against.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: honestImports
        ),
        // What the server's tests share: each test against SQLite and a real PostgreSQL.
        .target(
            name: "StorekeeperServerTestSupport",
            dependencies: [
                "StorekeeperServerStorage",
                .product(name: "StorekeeperChildProcess", package: "storekeeper"),
            ],
            path: "Sources/Testing/StorekeeperServerTestSupport",
            swiftSettings: honestImports
        ),
        // The server executable: `serve` (the default) and `verify`. It links the catalog compiler, so
        // that --policy takes a catalog as well as a compiled policy.
        .executableTarget(
            name: "storekeeper-server",
            dependencies: [
                .product(name: "StorekeeperContract", package: "storekeeper"),
                "StorekeeperServer",
                "StorekeeperVerification",
                "StorekeeperServerStorage",
                .product(name: "StorekeeperTooling", package: "storekeeper"),
                .product(name: "StorekeeperRuntime", package: "storekeeper"),
                .product(name: "StorekeeperCore", package: "storekeeper"),
                .product(name: "StorekeeperJSON", package: "storekeeper"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: honestImports
        ),
        // The load benchmark (not a test): signed purchases posted to a storekeeper-server on loopback
        // by concurrent keep-alive clients; purchases recorded per second and latency (docs/performance.md).
        .executableTarget(
            name: "storekeeper-server-load",
            dependencies: [
                "StorekeeperServer",
                .product(name: "StorekeeperTestChain", package: "storekeeper"),
                .product(name: "StorekeeperSimulatedStore", package: "storekeeper"),
                .product(name: "StorekeeperChildProcess", package: "storekeeper"),
                .product(name: "StorekeeperCore", package: "storekeeper"),
                .product(name: "StorekeeperJSON", package: "storekeeper"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: honestImports
        ),
        // Random lives (issue 24): lives of the App Store model (StorekeeperStoreModel) driven through in-process
        // servers on loopback over real HTTP, on SQLite or PostgreSQL, one or two instances; at each checkpoint
        // the server's entitlements must equal the model's. Shared by the suite and storekeeper-server-lives.
        .target(
            name: "StorekeeperServerLives",
            dependencies: [
                .product(name: "StorekeeperContract", package: "storekeeper"),
                "StorekeeperServer",
                "StorekeeperServerStorage",
                "StorekeeperServerTestSupport",
                "StorekeeperVerification",
                .product(name: "StorekeeperStoreModel", package: "storekeeper"),
                .product(name: "StorekeeperTestChain", package: "storekeeper"),
                .product(name: "StorekeeperSimulatedStore", package: "storekeeper"),
                .product(name: "StorekeeperTooling", package: "storekeeper"),
                // Devices/: each person's device, the app's queue over StoreKit 2 talking to the server over HTTP.
                .product(name: "StorekeeperQueue", package: "storekeeper"),
                .product(name: "StorekeeperHTTP", package: "storekeeper"),
                .product(name: "StorekeeperStoreKit", package: "storekeeper"),
                // ModelStoreKit2Device: the StoreKit 2 fake driven by the App Store model.
                .product(name: "StorekeeperDeviceLives", package: "storekeeper"),
                .product(name: "StorekeeperRuntime", package: "storekeeper"),
                .product(name: "StorekeeperCore", package: "storekeeper"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Sources/Testing/StorekeeperServerLives",
            swiftSettings: honestImports
        ),
        // `storekeeper-server-lives --lives 10000`: the random lives in bulk, or one replayed (docs/server.md, "Random lives").
        .executableTarget(
            name: "storekeeper-server-lives",
            dependencies: [
                "StorekeeperServerLives",
                .product(name: "StorekeeperStoreModel", package: "storekeeper"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: honestImports
        ),
        // The executable run as a child process: exit codes, configuration precedence, redaction, serving.
        .testTarget(
            name: "StorekeeperServerCommandTests",
            dependencies: [
                "StorekeeperServer",
                "StorekeeperServerTestSupport",
                .product(name: "StorekeeperTestChain", package: "storekeeper"),
                .product(name: "StorekeeperChildProcess", package: "storekeeper"),
                .product(name: "StorekeeperJSON", package: "storekeeper"),
                .product(name: "StorekeeperCore", package: "storekeeper"),
                .product(name: "StorekeeperSimulatedStore", package: "storekeeper"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            // Read by path (RepositoryFiles): daily-planet.policy.json is `storekeeper compile
            // Catalogs/daily-planet/catalog.yaml`, made with the main package's CLI.
            exclude: ["Fixtures"],
            swiftSettings: honestImports
        ),
    ],
    swiftLanguageModes: [.v6]
)
