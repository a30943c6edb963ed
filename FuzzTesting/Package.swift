// swift-tools-version:6.1
import PackageDescription

// The fuzz targets (docs/fuzzing.md), apart from the root package: building
// with `-sanitize=fuzzer` links libFuzzer's `main` into every executable,
// which would break the root package's own tools. Build and run them with
// `Scripts/fuzz`, which passes the sanitizer flags.
let package = Package(
    name: "StorekeeperFuzzTesting",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Named, since a path dependency is otherwise known by its folder's name, which depends on the clone.
        .package(name: "Storekeeper", path: ".."),
    ],
    targets: [
        // libFuzzer's driver, declared for Swift (the runtime comes with -sanitize=fuzzer).
        .target(name: "CLibFuzzer"),
        // What the targets share: inputs split into in-memory files, and the checks a target fails on.
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CLibFuzzer",
                // The tooling product: the catalog, the rules, the compiler, the reporters and the runtime below them.
                .product(name: "StorekeeperTooling", package: "Storekeeper"),
            ]
        ),
        // The YAML layer, the catalog loader and validator, the policy rules, the compiler and the four reporters.
        .executableTarget(
            name: "FuzzCatalog",
            dependencies: [
                "FuzzSupport",
                // The tooling product: the catalog, the rules, the compiler, the reporters and the runtime below them.
                .product(name: "StorekeeperTooling", package: "Storekeeper"),
            ]
        ),
        // The compiled-policy reader, with a round trip through the writer, and the explanations.
        .executableTarget(
            name: "FuzzPolicy",
            dependencies: [
                "FuzzSupport",
                // The tooling product: the catalog, the rules, the compiler, the reporters and the runtime below them.
                .product(name: "StorekeeperTooling", package: "Storekeeper"),
            ]
        ),
        // The `.storekit` reader and importer, the policy rules on the imported catalog, and the exporter.
        .executableTarget(
            name: "FuzzStoreKit",
            dependencies: [
                "FuzzSupport",
                // The tooling product: the catalog, the rules, the compiler, the reporters and the runtime below them.
                .product(name: "StorekeeperTooling", package: "Storekeeper"),
            ]
        ),
        // The scenario parser, and the scenario check against the example catalogs' policies.
        .executableTarget(
            name: "FuzzScenario",
            dependencies: [
                "FuzzSupport",
                // The tooling product: the catalog, the rules, the compiler, the reporters and the runtime below them.
                .product(name: "StorekeeperTooling", package: "Storekeeper"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
