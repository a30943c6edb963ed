// swift-tools-version:6.1
import PackageDescription

// An app that uses Storekeeper as an app does: it links only the runtime
// products (the queue, its StoreKit backend, and the simulated store for its
// own test run), and
// its two build-tool plugins turn the catalog beside its sources into typed
// Swift (Product.rocketCar) and into the compiled policy it ships
// (storekeeper-policy.json, a resource of the target). No YAML at run time.
let package = Package(
    name: "RocketRacerApp",
    platforms: [.macOS(.v13)],
    dependencies: [
        // This repository's package, by path. Elsewhere an app writes
        // .package(url: "https://github.com/<owner>/storekeeper", from: "0.1.0"),
        // whose identity is "storekeeper" too; `name:` gives a path dependency
        // that identity whatever the checkout's folder is called.
        .package(name: "storekeeper", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "RocketRacerApp",
            dependencies: [
                .product(name: "StorekeeperQueue", package: "storekeeper"),
                // The App Store on a device (StoreKit 2 through Storekeeper's backend).
                .product(name: "StorekeeperStoreKit", package: "storekeeper"),
                .product(name: "StorekeeperSimulatedStore", package: "storekeeper"),
            ],
            plugins: [
                .plugin(name: "StorekeeperCodegenPlugin", package: "storekeeper"),
                .plugin(name: "StorekeeperPolicyPlugin", package: "storekeeper"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
