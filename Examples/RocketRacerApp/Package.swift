// swift-tools-version:6.1
import PackageDescription

// An app that uses Storekeeper's build-tool plugin: the catalog beside its
// sources becomes typed Swift (Product.rocketCar) at every build.
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
            plugins: [.plugin(name: "StorekeeperCodegenPlugin", package: "storekeeper")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
