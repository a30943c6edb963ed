// swift-tools-version:6.1
import PackageDescription

// The package has two halves, and its folders show them:
//
// - Sources/Runtime: what an app or a server links. The transaction
//   vocabulary, the compiled policy and its JSON reader, plugins, dispatch,
//   the durable queue, records and entitlements, and a simulated App Store
//   for apps' tests. No YAML, no libyaml, no lint rules, no reporters.
// - Sources/Tooling: what runs on an author's machine. YAML, the catalog,
//   the rules, the compiler, explain, schema, Xcode's .storekit files, diff,
//   codegen and scenarios, behind one façade of workflows (StorekeeperTooling)
//   that the CLI, the codegen tool and the plugins call.
// - Sources/DeveloperTools: the benchmark and the crash drill, for developers of
//   Storekeeper itself.
//
// Data flows one way, and no target imports one above it:
// bytes → YAML nodes → catalog → rules → compiled policy → queue → entitlements.

/// The Apple platforms an app links the runtime on: the versions whose
/// standard library has `Duration` and the clocks (iOS 16 and its peers).
/// Newer APIs in the runtime need `@available` (Scripts/check-availability).
let platforms: [SupportedPlatform] = [
    .iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
]

/// Imports that say what they expose: an `import` is internal unless written
/// `public import` (so a target's public API names only what it means to), and
/// a member is used only from a module the file imports itself.
let honestImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"), .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Storekeeper",
    platforms: platforms,
    products: [
        // What an app links: the compiled policy, plugins and dispatch.
        .library(name: "StorekeeperRuntime", targets: ["StorekeeperRuntime"]),
        // The durable transaction queue over the runtime (SQLite through GRDB).
        .library(name: "StorekeeperQueue", targets: ["StorekeeperQueue"]),
        // The queue's backends over Apple's StoreKit (the original payment queue and StoreKit 2).
        .library(name: "StorekeeperStoreKit", targets: ["StorekeeperStoreKit"]),
        // The app's side of its own server over HTTP: requests, records, spends, resumable downloads.
        .library(name: "StorekeeperHTTP", targets: ["StorekeeperHTTP"]),
        // The server contract's paths and bodies, for a team's own server or client in Swift.
        .library(name: "StorekeeperContract", targets: ["StorekeeperContract"]),
        // A simulated App Store, for an app's own tests.
        .library(name: "StorekeeperSimulatedStore", targets: ["StorekeeperSimulatedStore"]),
        // A test certificate chain and StoreKit 2-style signed payloads (JWS), for apps' and servers' tests.
        .library(name: "StorekeeperTestChain", targets: ["StorekeeperTestChain"]),
        // A model of the App Store from Apple's documentation: what Apple sends and what a user is owed, for random lives.
        .library(name: "StorekeeperStoreModel", targets: ["StorekeeperStoreModel"]),
        // The device's random lives: StoreKit 1 and 2 as the model's world makes them, under the real queue and backends.
        .library(name: "StorekeeperDeviceLives", targets: ["StorekeeperDeviceLives"]),
        // For the server package (Server/, a package of its own that depends on this one by path): the
        // vocabulary and seeded randomness, the strict JSON parser, and child processes for its tests' oracle.
        .library(name: "StorekeeperCore", targets: ["StorekeeperCore"]),
        .library(name: "StorekeeperJSON", targets: ["StorekeeperJSON"]),
        .library(name: "StorekeeperChildProcess", targets: ["StorekeeperChildProcess"]),
        // The author's side: validate, compile, explain, import, export, diff, codegen, scenarios.
        .library(
            name: "StorekeeperTooling",
            targets: ["StorekeeperTooling", "StorekeeperSchema", "StorekeeperCodegen", "StorekeeperScenarios"]
        ),
        .executable(name: "storekeeper", targets: ["storekeeper"]),
        .executable(name: "storekeeper-codegen", targets: ["storekeeper-codegen"]),
        .plugin(name: "StorekeeperValidatePlugin", targets: ["StorekeeperValidatePlugin"]),
        .plugin(name: "StorekeeperCodegenPlugin", targets: ["StorekeeperCodegenPlugin"]),
        .plugin(name: "StorekeeperPolicyPlugin", targets: ["StorekeeperPolicyPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The test chain's keys, certificates and DER (StorekeeperTestChain only; the runtime links none of them).
        // swift-crypto 3 or 4: whichever the server's other packages resolve with.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // `swift package generate-documentation`: the runtime products' DocC catalogs, built with
        // warnings as errors by Scripts/check-docs. A command plugin only; no target depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: Runtime

        // The C library, named once (Glibc, Musl or Darwin).
        .target(name: "StorekeeperPlatform", path: "Sources/Runtime/StorekeeperPlatform", swiftSettings: honestImports),
        // The transaction vocabulary (product types, states, store errors, persistence,
        // content, built-in steps) and the server URL rule; depends on nothing.
        .target(name: "StorekeeperCore", path: "Sources/Runtime/StorekeeperCore", swiftSettings: honestImports),
        // A strict JSON parser and a deterministic writer.
        .target(name: "StorekeeperJSON", path: "Sources/Runtime/StorekeeperJSON", swiftSettings: honestImports),
        // The server contract (docs/server-contract.md): its paths, every body as a Codable value with
        // its checks, the error body and its codes, the coders both sides use, Base64 and a JWS peek.
        .target(name: "StorekeeperContract", dependencies: ["StorekeeperCore"], path: "Sources/Runtime/StorekeeperContract", swiftSettings: honestImports),
        // Compiled policies (read from JSON), plugins and built-in steps, plan lookup.
        .target(
            name: "StorekeeperRuntime",
            dependencies: ["StorekeeperCore", "StorekeeperJSON", "StorekeeperContract"],
            path: "Sources/Runtime/StorekeeperRuntime",
            swiftSettings: honestImports
        ),
        // The transaction queue: durable, exactly-once dispatch of compiled plans (journal in SQLite
        // through GRDB), where records live, and the entitlements an app reads.
        .target(
            name: "StorekeeperQueue",
            dependencies: [
                "StorekeeperContract",
                "StorekeeperRuntime", "StorekeeperCore", "StorekeeperPlatform",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/Runtime/StorekeeperQueue",
            // Its required-reason APIs (file timestamps through stat, UserDefaults), as GRDB declares its own.
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: honestImports
        ),
        // StoreKit backends: adapters over protocols that mirror the part of StoreKit each uses, so that
        // every mapping is tested on Linux with fakes; Apple's types conform only where StoreKit exists.
        .target(
            name: "StorekeeperStoreKit",
            dependencies: ["StorekeeperQueue", "StorekeeperRuntime", "StorekeeperCore"],
            path: "Sources/Runtime/StorekeeperStoreKit",
            swiftSettings: honestImports
        ),
        // ServerTransport over HTTP (URLSession; FoundationNetworking on Linux) and the content downloader.
        .target(
            name: "StorekeeperHTTP",
            dependencies: ["StorekeeperRuntime", "StorekeeperCore", "StorekeeperPlatform"],
            path: "Sources/Runtime/StorekeeperHTTP",
            swiftSettings: honestImports
        ),
        // The simulated App Store (a StoreBackend, deterministic under a seed) and the app's simulated server.
        .target(
            name: "StorekeeperSimulatedStore",
            dependencies: ["StorekeeperContract", "StorekeeperQueue", "StorekeeperRuntime", "StorekeeperCore"],
            path: "Sources/Testing/StorekeeperSimulatedStore",
            swiftSettings: honestImports
        ),

        // MARK: Tooling

        // libyaml, from the system: `apt-get install libyaml-dev` (Debian, Ubuntu) or `brew install libyaml`.
        .systemLibrary(
            name: "CYAML",
            path: "Sources/Tooling/CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // Child processes (posix_spawn): start, capture, kill, time out, wait; for git, the checks and the tests, never the runtime.
        .target(name: "StorekeeperChildProcess", dependencies: ["StorekeeperCore", "StorekeeperPlatform"], path: "Sources/Testing/StorekeeperChildProcess", swiftSettings: honestImports),
        // Locations, located values, severities, diagnostics, their reporters, and whole-file output.
        .target(
            name: "StorekeeperDiagnostics",
            dependencies: ["StorekeeperCore", "StorekeeperJSON", "StorekeeperPlatform"],
            path: "Sources/Tooling/StorekeeperDiagnostics",
            swiftSettings: honestImports
        ),
        // A located YAML node tree built from libyaml's events, with hard limits, and the decoding
        // context (diagnostics, typo index, typed readers) that catalogs, scenarios and storekeeper.yml share.
        .target(
            name: "StorekeeperYAML",
            dependencies: ["CYAML", "StorekeeperDiagnostics", "StorekeeperCore", "StorekeeperPlatform"],
            path: "Sources/Tooling/StorekeeperYAML",
            swiftSettings: honestImports
        ),
        // The catalog model, its decoding from located nodes, includes and cross-file checks.
        .target(
            name: "StorekeeperCatalog",
            dependencies: ["StorekeeperCore", "StorekeeperYAML", "StorekeeperDiagnostics", "StorekeeperPlatform"],
            path: "Sources/Tooling/StorekeeperCatalog",
            swiftSettings: honestImports
        ),
        // Plans per product and transaction state: default plans, custom rules applied, what is wrong with them.
        .target(
            name: "StorekeeperPolicy",
            dependencies: ["StorekeeperCatalog", "StorekeeperCore", "StorekeeperDiagnostics"],
            path: "Sources/Tooling/StorekeeperPolicy",
            swiftSettings: honestImports
        ),
        // Policy rules from the In-App Purchase guide, as values with their own examples; configuration and suppression.
        .target(
            name: "StorekeeperRules",
            dependencies: [
                "StorekeeperPolicy", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics",
                "StorekeeperCore", "StorekeeperPlatform",
            ],
            path: "Sources/Tooling/StorekeeperRules",
            swiftSettings: honestImports
        ),
        // Catalog to compiled policy (refusing what the plan analysis finds; no lint rules linked);
        // explanations; loading a catalog or a policy by what the file is.
        .target(
            name: "StorekeeperCompiler",
            dependencies: [
                "StorekeeperRuntime", "StorekeeperPolicy", "StorekeeperCatalog", "StorekeeperYAML",
                "StorekeeperDiagnostics", "StorekeeperCore", "StorekeeperJSON",
            ],
            path: "Sources/Tooling/StorekeeperCompiler",
            swiftSettings: honestImports
        ),
        // The JSON Schema (draft 2020-12) of the catalog format, for editors (`storekeeper schema`).
        .target(
            name: "StorekeeperSchema",
            dependencies: [
                "StorekeeperPolicy", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics",
                "StorekeeperCore", "StorekeeperJSON",
            ],
            path: "Sources/Tooling/StorekeeperSchema",
            swiftSettings: honestImports
        ),
        // Xcode's StoreKit configuration files (.storekit): import into a catalog, export from one.
        .target(
            name: "StorekeeperXcodeConfig",
            dependencies: ["StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics", "StorekeeperCore", "StorekeeperJSON"],
            path: "Sources/Tooling/StorekeeperXcodeConfig",
            swiftSettings: honestImports
        ),
        // What a catalog change does to users who already bought (`storekeeper diff OLD NEW`).
        .target(
            name: "StorekeeperDiff",
            dependencies: ["StorekeeperCatalog", "StorekeeperDiagnostics", "StorekeeperCore", "StorekeeperChildProcess", "StorekeeperPlatform"],
            path: "Sources/Tooling/StorekeeperDiff",
            swiftSettings: honestImports
        ),
        // Typed Swift (product ids, features, balances) generated from a catalog.
        .target(
            name: "StorekeeperCodegen",
            dependencies: ["StorekeeperCatalog", "StorekeeperDiagnostics", "StorekeeperCore", "StorekeeperJSON"],
            path: "Sources/Tooling/StorekeeperCodegen",
            swiftSettings: honestImports
        ),
        // Scripted sessions run against a catalog's compiled policy and the simulated store, traced and checked.
        .target(
            name: "StorekeeperScenarios",
            dependencies: [
                "StorekeeperSimulatedStore", "StorekeeperQueue", "StorekeeperRuntime", "StorekeeperCompiler",
                "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics", "StorekeeperCore", "StorekeeperJSON",
            ],
            path: "Sources/Tooling/StorekeeperScenarios",
            swiftSettings: honestImports
        ),

        // The workflows every front end calls: validate; validate then compile; import then validate; diff.
        // It re-exports the modules whose types the front ends name (Exports.swift), so that they import it alone.
        // Not the scenarios: the codegen tool links this, and must not link SQLite.
        .target(
            name: "StorekeeperTooling",
            dependencies: [
                "StorekeeperCompiler", "StorekeeperRules", "StorekeeperXcodeConfig", "StorekeeperDiff", "StorekeeperSchema",
                "StorekeeperCodegen", "StorekeeperRuntime", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics",
                "StorekeeperCore", "StorekeeperJSON", "StorekeeperPlatform",
            ],
            path: "Sources/Tooling/StorekeeperTooling",
            swiftSettings: honestImports
        ),

        // What every command-line front end shares: `validate`, the limits, reporting, exit statuses.
        // No scenarios and no SQLite, so that the validate plugin's host build stays small.
        .target(
            name: "StorekeeperCommandLine",
            dependencies: [
                "StorekeeperTooling", "StorekeeperCompiler", "StorekeeperRuntime", "StorekeeperRules", "StorekeeperCatalog",
                "StorekeeperYAML", "StorekeeperDiagnostics", "StorekeeperCore", "StorekeeperPlatform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/Tooling/StorekeeperCommandLine",
            swiftSettings: honestImports
        ),
        // The command-line tool: argument parsing over the workflows, nothing more.
        .executableTarget(
            name: "storekeeper",
            dependencies: [
                "StorekeeperCommandLine", "StorekeeperTooling",
                // `simulate` only: the façade leaves the scenarios and the simulated store out (they link SQLite).
                "StorekeeperScenarios", "StorekeeperSimulatedStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/Tooling/storekeeper",
            swiftSettings: honestImports
        ),
        // The build-tool plugins' tool: validates like the CLI, then writes the Swift or the compiled policy.
        // Links no SQLite, no argument parser and no simulator, so an app's first build stays short.
        .executableTarget(
            name: "storekeeper-codegen",
            dependencies: ["StorekeeperTooling"],
            path: "Sources/Tooling/storekeeper-codegen",
            swiftSettings: honestImports
        ),
        // The validate plugin's tool: `storekeeper validate` alone, built for the host when the plugin first runs.
        .executableTarget(
            name: "storekeeper-validate",
            dependencies: ["StorekeeperCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/Tooling/storekeeper-validate",
            swiftSettings: honestImports
        ),
        // Generates typed product ids, features and balances from the catalogs in a target (Examples/).
        .plugin(name: "StorekeeperCodegenPlugin", capability: .buildTool(), dependencies: ["storekeeper-codegen"]),
        // Compiles the catalog in a target into its policy JSON, bundled as a resource (Bundle.module).
        .plugin(name: "StorekeeperPolicyPlugin", capability: .buildTool(), dependencies: ["storekeeper-codegen"]),
        // `swift package storekeeper-validate [PATH...]`: the CLI's validate, run by SwiftPM over the package's catalogs.
        .plugin(
            name: "StorekeeperValidatePlugin",
            capability: .command(intent: .custom(
                verb: "storekeeper-validate",
                description: "Validate the package's in-app purchase catalogs (Catalogs/ unless paths are given).")),
            dependencies: ["storekeeper-validate"]
        ),

        // MARK: Developer tools

        // The benchmarks: validate and compile against libyaml's bare scan (child processes), and dispatch (in process).
        .executableTarget(
            name: "storekeeper-benchmark",
            dependencies: [
                "CYAML", "StorekeeperCompiler", "StorekeeperRuntime", "StorekeeperRules", "StorekeeperPolicy",
                "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics", "StorekeeperQueue", "StorekeeperCore", "StorekeeperChildProcess", "StorekeeperPlatform",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/DeveloperTools/storekeeper-benchmark",
            swiftSettings: honestImports
        ),
        // The crash drill: runs the queue in child processes killed with SIGKILL and checks exactly-once delivery.
        // Thousands of the device's random lives, or one replayed from its seed.
        .executableTarget(
            name: "storekeeper-device-lives",
            dependencies: [
                "StorekeeperDeviceLives", "StorekeeperStoreModel", "StorekeeperRuntime", "StorekeeperCore",
                "StorekeeperTestChain", "StorekeeperTooling", "StorekeeperSimulatedStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/DeveloperTools/storekeeper-device-lives",
            swiftSettings: honestImports
        ),
        .executableTarget(
            name: "storekeeper-queue-drill",
            dependencies: [
                "StorekeeperQueue", "StorekeeperRuntime", "StorekeeperCompiler", "StorekeeperCore", "StorekeeperChildProcess",
                "StorekeeperPlatform",
            ],
            path: "Sources/DeveloperTools/storekeeper-queue-drill",
            swiftSettings: honestImports
        ),

        // MARK: Testing

        // A test certificate chain (root, intermediate, leaf with Apple's OIDs) and payloads signed as the App
        // Store signs them (JWS ES256 with x5c), for apps' and servers' tests; signs for the simulated store.
        // The only target with swift-crypto: an app's runtime never links it.
        .target(
            name: "StorekeeperTestChain",
            dependencies: [
                "StorekeeperContract",
                "StorekeeperSimulatedStore", "StorekeeperQueue", "StorekeeperJSON", "StorekeeperCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Sources/Testing/StorekeeperTestChain",
            swiftSettings: honestImports
        ),
        // A model of the App Store written from Apple's documentation alone (docs/store-model.md): a clock, Apple IDs,
        // families and a policy's products; its actions answer the signed transactions and server notifications Apple
        // sends, and each app account's expected entitlements. The oracle of the server's random lives.
        .target(
            name: "StorekeeperStoreModel",
            dependencies: ["StorekeeperTestChain", "StorekeeperSimulatedStore", "StorekeeperRuntime", "StorekeeperCore"],
            path: "Sources/Testing/StorekeeperStoreModel",
            swiftSettings: honestImports
        ),
        // The device's random lives (issue 25): fakes of StoreKit 1 and 2 whose transactions, receipts, entitlements
        // and subscription statuses come from the store model's world, with StoreKit's faults; a driver that runs
        // the real queue and backend over them, relaunching on the journal, and checks the device against the model.
        .target(
            name: "StorekeeperDeviceLives",
            dependencies: [
                "StorekeeperStoreModel", "StorekeeperStoreKit", "StorekeeperQueue", "StorekeeperTestChain", "StorekeeperRuntime",
                "StorekeeperCore",
            ],
            path: "Sources/Testing/StorekeeperDeviceLives",
            swiftSettings: honestImports
        ),

        // MARK: Tests

        // What the test targets share: the package root, scratch folders, catalog text, the Python
        // schema validator's home (child processes and seeded randomness are library targets of their own).
        .target(
            name: "StorekeeperTestSupport",
            dependencies: [],
            path: "Sources/Testing/StorekeeperTestSupport",
            swiftSettings: honestImports
        ),
        .testTarget(name: "StorekeeperCoreTests", dependencies: ["StorekeeperCore"], swiftSettings: honestImports),
        // The contract's types against docs/server-contract.md's own JSON examples, the oracle of both sides.
        .testTarget(name: "StorekeeperContractTests", dependencies: ["StorekeeperContract", "StorekeeperTestSupport"], swiftSettings: honestImports),
        // Goldens and the SARIF schema are read through #filePath, not bundled.
        .testTarget(
            name: "StorekeeperDiagnosticsTests",
            dependencies: ["StorekeeperChildProcess", "StorekeeperTestSupport", "StorekeeperDiagnostics", "StorekeeperJSON", "StorekeeperCore", "StorekeeperPlatform"],
            exclude: ["Goldens", "Fixtures"],
            swiftSettings: honestImports
        ),
        .testTarget(
            name: "StorekeeperYAMLTests",
            dependencies: ["StorekeeperYAML", "StorekeeperDiagnostics", "StorekeeperCore", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: honestImports
        ),
        .testTarget(
            name: "StorekeeperCatalogTests",
            dependencies: [
                "StorekeeperTestSupport", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics", "StorekeeperCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: honestImports
        ),
        .testTarget(name: "StorekeeperPolicyTests", dependencies: ["StorekeeperTestSupport", "StorekeeperPolicy", "StorekeeperCatalog", "StorekeeperDiagnostics", "StorekeeperCore"], swiftSettings: honestImports),
        .testTarget(
            name: "StorekeeperRulesTests",
            dependencies: ["StorekeeperTestSupport", "StorekeeperRules", "StorekeeperPolicy", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics", "StorekeeperCore", "StorekeeperPlatform"],
            swiftSettings: honestImports
        ),
        .testTarget(
            name: "StorekeeperCompilerTests",
            dependencies: [
                "StorekeeperChildProcess",
                "StorekeeperTestSupport", "StorekeeperCompiler", "StorekeeperRuntime", "StorekeeperRules", "StorekeeperPolicy",
                "StorekeeperCatalog", "StorekeeperDiagnostics", "StorekeeperCore", "StorekeeperJSON",
            ],
            swiftSettings: honestImports
        ),
        .testTarget(name: "StorekeeperCLITests", dependencies: ["StorekeeperChildProcess", "StorekeeperTestSupport", "StorekeeperDiagnostics", "StorekeeperJSON", "StorekeeperCore", "StorekeeperPlatform"], swiftSettings: honestImports),
        .testTarget(
            name: "StorekeeperQueueTests",
            dependencies: [
                "StorekeeperChildProcess",
                "StorekeeperTestSupport", "StorekeeperQueue", "StorekeeperSimulatedStore", "StorekeeperScenarios", "StorekeeperCompiler",
                "StorekeeperRuntime", "StorekeeperCatalog", "StorekeeperDiagnostics", "StorekeeperCore", "StorekeeperPlatform",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: honestImports
        ),
        .testTarget(
            name: "StorekeeperStoreKitTests",
            dependencies: [
                "StorekeeperTestSupport", "StorekeeperStoreKit", "StorekeeperQueue", "StorekeeperSimulatedStore", "StorekeeperCompiler",
                "StorekeeperRuntime", "StorekeeperCore", "StorekeeperChildProcess",
            ],
            swiftSettings: honestImports
        ),
        .testTarget(
            name: "StorekeeperHTTPTests",
            dependencies: [
                "StorekeeperTestSupport", "StorekeeperHTTP", "StorekeeperQueue", "StorekeeperSimulatedStore", "StorekeeperCompiler",
                "StorekeeperRuntime", "StorekeeperCore", "StorekeeperPlatform",
            ],
            swiftSettings: honestImports
        ),
        // Signed payloads checked by Apple's own verifier (Python's app-store-server-library) as the oracle.
        .testTarget(
            name: "StorekeeperTestChainTests",
            dependencies: [
                "StorekeeperContract",
                "StorekeeperTestChain", "StorekeeperTestSupport", "StorekeeperChildProcess", "StorekeeperSimulatedStore",
                "StorekeeperQueue", "StorekeeperCompiler", "StorekeeperRuntime", "StorekeeperCore", "StorekeeperJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            exclude: ["verify_signed.py"],
            swiftSettings: honestImports
        ),
        // The App Store model's rules, each expectation taken from the Apple page its test cites.
        .testTarget(
            name: "StorekeeperStoreModelTests",
            dependencies: [
                "StorekeeperStoreModel", "StorekeeperTestChain", "StorekeeperTestSupport", "StorekeeperCompiler", "StorekeeperSimulatedStore",
                "StorekeeperRuntime", "StorekeeperCore", "StorekeeperJSON",
            ],
            swiftSettings: honestImports
        ),
        // The device's random lives through each backend; the model-driven fakes' own rules, from Apple's pages.
        .testTarget(
            name: "StorekeeperDeviceLivesTests",
            dependencies: [
                "StorekeeperDeviceLives", "StorekeeperStoreModel", "StorekeeperTestChain", "StorekeeperTestSupport", "StorekeeperCompiler",
                "StorekeeperStoreKit", "StorekeeperQueue", "StorekeeperRuntime", "StorekeeperCore", "StorekeeperTooling",
                "StorekeeperSimulatedStore",
            ],
            swiftSettings: honestImports
        ),
        .testTarget(
            name: "StorekeeperScenariosTests",
            dependencies: [
                "StorekeeperTestSupport", "StorekeeperScenarios", "StorekeeperSimulatedStore", "StorekeeperQueue", "StorekeeperCompiler", "StorekeeperRuntime",
                "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics", "StorekeeperCore",
            ],
            swiftSettings: honestImports
        ),
        // The broken catalogs and the .storekit fixtures are read through #filePath, not bundled.
        .testTarget(
            name: "StorekeeperSchemaTests",
            dependencies: ["StorekeeperChildProcess", "StorekeeperTestSupport", "StorekeeperSchema", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics", "StorekeeperCore", "StorekeeperJSON"],
            exclude: ["Fixtures"],
            swiftSettings: honestImports
        ),
        .testTarget(
            name: "StorekeeperXcodeConfigTests",
            dependencies: ["StorekeeperXcodeConfig", "StorekeeperCatalog", "StorekeeperDiagnostics", "StorekeeperCore"],
            exclude: ["Fixtures"],
            swiftSettings: honestImports
        ),
        // Starting, killing, timing out and capturing children, through real programs (/bin/sh).
        .testTarget(name: "StorekeeperChildProcessTests", dependencies: ["StorekeeperChildProcess", "StorekeeperPlatform"], swiftSettings: honestImports),
        // The workflows called as the CLI, the codegen tool and the plugins call them; the .storekit
        // fixtures are read from StorekeeperXcodeConfigTests through #filePath.
        .testTarget(
            name: "StorekeeperToolingTests",
            dependencies: ["StorekeeperTestSupport", 
                "StorekeeperTooling", "StorekeeperXcodeConfig", "StorekeeperRuntime", "StorekeeperCatalog",
                "StorekeeperDiagnostics", "StorekeeperCore",
            ],
            swiftSettings: honestImports
        ),
        .testTarget(name: "StorekeeperDiffTests", dependencies: ["StorekeeperTestSupport", "StorekeeperDiff", "StorekeeperCatalog", "StorekeeperDiagnostics", "StorekeeperCore"], swiftSettings: honestImports),
        .testTarget(
            name: "StorekeeperCodegenTests",
            dependencies: ["StorekeeperChildProcess", "StorekeeperTestSupport", "StorekeeperCodegen", "StorekeeperCatalog", "StorekeeperDiagnostics", "StorekeeperCore"],
            swiftSettings: honestImports
        ),
    ],
    swiftLanguageModes: [.v6]
)
