// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Storekeeper",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "storekeeper", targets: ["storekeeper"]),
        .library(name: "StorekeeperCatalog", targets: ["StorekeeperCatalog"]),
        .library(name: "StorekeeperYAML", targets: ["StorekeeperYAML"]),
        .library(name: "StorekeeperDiagnostics", targets: ["StorekeeperDiagnostics"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // libyaml, from the system: `apt-get install libyaml-dev` (Debian, Ubuntu) or `brew install libyaml`.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // Locations, severities, diagnostics and their reporters: shared by every layer.
        .target(name: "StorekeeperDiagnostics"),
        // A located YAML node tree built from libyaml's events, with hard limits.
        .target(name: "StorekeeperYAML", dependencies: ["CYAML", "StorekeeperDiagnostics"]),
        // The catalog model, its decoding from located nodes, includes and cross-file checks.
        .target(name: "StorekeeperCatalog", dependencies: ["StorekeeperYAML", "StorekeeperDiagnostics"]),
        // Policy rules from the In-App Purchase guide, as values with their own examples.
        .target(name: "StorekeeperRules", dependencies: ["StorekeeperCatalog", "StorekeeperDiagnostics"]),
        // The command-line tool: argument parsing over the libraries, nothing more.
        .executableTarget(
            name: "storekeeper",
            dependencies: [
                "StorekeeperCatalog",
                "StorekeeperYAML",
                "StorekeeperDiagnostics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The validation benchmark: `storekeeper validate` against libyaml's bare event scan.
        .executableTarget(name: "storekeeper-benchmark", dependencies: ["CYAML"]),
        .testTarget(name: "StorekeeperDiagnosticsTests", dependencies: ["StorekeeperDiagnostics"]),
        .testTarget(
            name: "StorekeeperYAMLTests",
            dependencies: ["StorekeeperYAML", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "StorekeeperCatalogTests",
            dependencies: ["StorekeeperCatalog", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "StorekeeperRulesTests", dependencies: ["StorekeeperRules", "StorekeeperCatalog"]),
        .testTarget(name: "StorekeeperCLITests", dependencies: ["StorekeeperDiagnostics"]),
    ],
    swiftLanguageModes: [.v6]
)
