// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Storekeeper",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "storekeeper", targets: ["storekeeper"]),
        .library(name: "StorekeeperSimulator", targets: ["StorekeeperSimulator"]),
        .library(name: "StorekeeperQueue", targets: ["StorekeeperQueue"]),
        .library(name: "StorekeeperEngine", targets: ["StorekeeperEngine"]),
        .library(name: "StorekeeperRules", targets: ["StorekeeperRules"]),
        .library(name: "StorekeeperPolicy", targets: ["StorekeeperPolicy"]),
        .library(name: "StorekeeperCatalog", targets: ["StorekeeperCatalog"]),
        .library(name: "StorekeeperYAML", targets: ["StorekeeperYAML"]),
        .library(name: "StorekeeperDiagnostics", targets: ["StorekeeperDiagnostics"]),
        .library(name: "StorekeeperCore", targets: ["StorekeeperCore"]),
        .library(name: "StorekeeperSchema", targets: ["StorekeeperSchema"]),
        .library(name: "StorekeeperStoreKit", targets: ["StorekeeperStoreKit"]),
        .library(name: "StorekeeperDiff", targets: ["StorekeeperDiff"]),
        .library(name: "StorekeeperCodegen", targets: ["StorekeeperCodegen"]),
        .executable(name: "storekeeper-codegen", targets: ["storekeeper-codegen"]),
        .plugin(name: "StorekeeperValidatePlugin", targets: ["StorekeeperValidatePlugin"]),
        .plugin(name: "StorekeeperCodegenPlugin", targets: ["StorekeeperCodegenPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // libyaml, from the system: `apt-get install libyaml-dev` (Debian, Ubuntu) or `brew install libyaml`.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // What the runtime, the server and the tooling share (the server URL rule); depends on nothing.
        .target(name: "StorekeeperCore"),
        // Locations, severities, diagnostics and their reporters: shared by every layer.
        .target(name: "StorekeeperDiagnostics"),
        // A located YAML node tree built from libyaml's events, with hard limits.
        .target(name: "StorekeeperYAML", dependencies: ["CYAML", "StorekeeperDiagnostics"]),
        // The catalog model, its decoding from located nodes, includes and cross-file checks.
        .target(name: "StorekeeperCatalog", dependencies: ["StorekeeperCore", "StorekeeperYAML", "StorekeeperDiagnostics"]),
        // Plans per product and transaction state: default plans, custom rules applied, what is wrong with them.
        .target(name: "StorekeeperPolicy", dependencies: ["StorekeeperCatalog", "StorekeeperDiagnostics"]),
        // Policy rules from the In-App Purchase guide, as values with their own examples; configuration and suppression.
        .target(name: "StorekeeperRules", dependencies: ["StorekeeperPolicy", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics"]),
        // The policy engine: plugins, the plan compiler, compiled policies (JSON), explanations.
        .target(name: "StorekeeperEngine", dependencies: ["StorekeeperCore", "StorekeeperRules", "StorekeeperPolicy", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics"]),
        // The transaction queue: durable, exactly-once dispatch of compiled plans (journal in SQLite through GRDB),
        // where records live, and the entitlements an app reads. Apart from the engine so that the compiler and
        // the CLI's validate and compile do not link SQLite.
        .target(name: "StorekeeperQueue", dependencies: ["StorekeeperEngine", "StorekeeperPolicy", "StorekeeperCatalog", "StorekeeperDiagnostics", .product(name: "GRDB", package: "GRDB.swift")]),
        // The simulated App Store (a StoreBackend, deterministic under a seed), the app's simulated server,
        // and scenarios: scripted sessions run against a catalog's compiled policy, traced and checked.
        .target(name: "StorekeeperSimulator", dependencies: ["StorekeeperQueue", "StorekeeperEngine", "StorekeeperPolicy", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics"]),
        // The JSON Schema (draft 2020-12) of the catalog format, for editors (`storekeeper schema`).
        .target(name: "StorekeeperSchema", dependencies: ["StorekeeperPolicy", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics"]),
        // Xcode's StoreKit configuration files (.storekit): import into a catalog, export from one.
        .target(name: "StorekeeperStoreKit", dependencies: ["StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics"]),
        // What a catalog change does to users who already bought (`storekeeper diff OLD NEW`).
        .target(name: "StorekeeperDiff", dependencies: ["StorekeeperCatalog", "StorekeeperDiagnostics"]),
        // Typed Swift (product ids, features, balances) generated from a catalog.
        .target(name: "StorekeeperCodegen", dependencies: ["StorekeeperCatalog", "StorekeeperDiagnostics"]),
        // The build-tool plugin's tool: validates like the CLI, then writes the Swift. Links no SQLite,
        // no argument parser and no simulator, so an app's first build stays short.
        .executableTarget(name: "storekeeper-codegen", dependencies: ["StorekeeperCodegen", "StorekeeperRules", "StorekeeperCatalog", "StorekeeperDiagnostics"]),
        // Generates typed product ids, features and balances from the catalogs in a target (Examples/).
        .plugin(name: "StorekeeperCodegenPlugin", capability: .buildTool(), dependencies: ["storekeeper-codegen"]),
        // The command-line tool: argument parsing over the libraries, nothing more.
        .executableTarget(
            name: "storekeeper",
            dependencies: [
                "StorekeeperSchema",
                "StorekeeperStoreKit",
                "StorekeeperDiff",
                "StorekeeperSimulator",
                "StorekeeperQueue",
                "StorekeeperEngine",
                "StorekeeperRules",
                "StorekeeperPolicy",
                "StorekeeperCatalog",
                "StorekeeperYAML",
                "StorekeeperDiagnostics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The benchmarks: validate and compile against libyaml's bare scan (child processes), and plan lookups (in process).
        .executableTarget(name: "storekeeper-benchmark", dependencies: ["CYAML", "StorekeeperEngine", "StorekeeperRules", "StorekeeperCatalog", "StorekeeperQueue"]),
        // The crash drill: runs the queue in child processes killed with SIGKILL and checks exactly-once delivery.
        .executableTarget(name: "storekeeper-queue-drill", dependencies: ["StorekeeperQueue", "StorekeeperEngine", "StorekeeperCatalog"]),
        // `swift package storekeeper-validate [PATH...]`: the CLI's validate, run by SwiftPM over the package's catalogs.
        .plugin(
            name: "StorekeeperValidatePlugin",
            capability: .command(intent: .custom(
                verb: "storekeeper-validate",
                description: "Validate the package's in-app purchase catalogs (Catalogs/ unless paths are given).")),
            dependencies: ["storekeeper"]
        ),
        // What several test targets share: running child processes without Foundation's Process.
        .target(name: "StorekeeperTestSupport", path: "Tests/StorekeeperTestSupport"),
        // Goldens and the SARIF schema are read through #filePath, not bundled.
        .testTarget(name: "StorekeeperCoreTests", dependencies: ["StorekeeperCore"]),
        .testTarget(name: "StorekeeperDiagnosticsTests", dependencies: ["StorekeeperTestSupport", "StorekeeperDiagnostics"], exclude: ["Goldens", "Fixtures"]),
        .testTarget(
            name: "StorekeeperYAMLTests",
            dependencies: ["StorekeeperYAML", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "StorekeeperCatalogTests",
            dependencies: ["StorekeeperCatalog", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "StorekeeperPolicyTests", dependencies: ["StorekeeperPolicy", "StorekeeperCatalog"]),
        .testTarget(name: "StorekeeperRulesTests", dependencies: ["StorekeeperRules", "StorekeeperPolicy", "StorekeeperCatalog"]),
        .testTarget(name: "StorekeeperEngineTests", dependencies: ["StorekeeperTestSupport", "StorekeeperEngine", "StorekeeperRules", "StorekeeperPolicy", "StorekeeperCatalog", "StorekeeperDiagnostics"]),
        .testTarget(name: "StorekeeperCLITests", dependencies: ["StorekeeperTestSupport", "StorekeeperDiagnostics"]),
        .testTarget(name: "StorekeeperQueueTests", dependencies: ["StorekeeperTestSupport", "StorekeeperQueue", "StorekeeperSimulator", "StorekeeperEngine", "StorekeeperCatalog", "StorekeeperDiagnostics", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "StorekeeperSimulatorTests", dependencies: ["StorekeeperSimulator", "StorekeeperQueue", "StorekeeperEngine", "StorekeeperPolicy", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics"]),
        // The broken catalogs and the .storekit fixtures are read through #filePath, not bundled.
        .testTarget(name: "StorekeeperSchemaTests", dependencies: ["StorekeeperTestSupport", "StorekeeperSchema", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics"], exclude: ["Fixtures"]),
        .testTarget(name: "StorekeeperStoreKitTests", dependencies: ["StorekeeperStoreKit", "StorekeeperCatalog", "StorekeeperYAML", "StorekeeperDiagnostics"], exclude: ["Fixtures"]),
        .testTarget(name: "StorekeeperDiffTests", dependencies: ["StorekeeperDiff", "StorekeeperCatalog", "StorekeeperDiagnostics"]),
        .testTarget(name: "StorekeeperCodegenTests", dependencies: ["StorekeeperTestSupport", "StorekeeperCodegen", "StorekeeperCatalog", "StorekeeperDiagnostics"]),
    ],
    swiftLanguageModes: [.v6]
)
