// swift-tools-version:6.1
import PackageDescription

// StoreKit exists only in Apple's SDKs, and Storekeeper's tests run on Linux.
// This package compiles the StoreKit backends' conformances of Apple's types
// (the files behind `#if canImport(StoreKit)` in Sources/Runtime/StorekeeperStoreKit)
// against a mirror: a module named `StoreKit` (StoreKit/, a package of its own)
// declaring exactly the signatures they use, each copied from Apple's
// documentation with its page cited.
//
// It is a package of its own, outside the main package's graph, on purpose:
// SwiftPM puts every module of a build in one folder, so a `StoreKit` target in
// the main package would make `canImport(StoreKit)` true for every target there.
//
// What it proves: the conformance files type-check against the declarations
// copied here. What it cannot: that those declarations are Apple's (it never
// sees the real SDK). Scripts/check-storekit-mirror builds it.
let package = Package(
    name: "StoreKitMirror",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        // The runtime targets the backends build on, from the main package.
        .package(name: "Storekeeper", path: ".."),
        // The mirror of StoreKit (StoreKit/Sources/StoreKit: StoreKit2.swift and StoreKit1.swift), a package of its
        // own built with library evolution, as Apple's StoreKit is: a switch over one of its enums that Apple does
        // not declare @frozen then needs `@unknown default`, here as with the real SDK (see StoreKit/Package.swift).
        .package(name: "AppleStoreKitMirror", path: "StoreKit"),
    ],
    targets: [
        // Sources/Runtime/StorekeeperStoreKit itself (a symbolic link), compiled with the mirror importable,
        // under another name: SwiftPM refuses two targets named StorekeeperStoreKit in one package graph.
        .target(
            name: "StorekeeperStoreKitOnMirror",
            dependencies: [
                .product(name: "StoreKit", package: "AppleStoreKitMirror"),
                .product(name: "StorekeeperQueue", package: "Storekeeper"),
                .product(name: "StorekeeperRuntime", package: "Storekeeper"),
            ],
            path: "Sources/StorekeeperStoreKit"
        ),
        // The app examples docs/storekit-backends.md shows, compiled against the mirror.
        .target(
            name: "StoreKitMirrorExamples",
            dependencies: [
                .product(name: "StoreKit", package: "AppleStoreKitMirror"), "StorekeeperStoreKitOnMirror",
                .product(name: "StorekeeperQueue", package: "Storekeeper"),
                .product(name: "StorekeeperRuntime", package: "Storekeeper"),
            ],
            path: "Sources/StoreKitMirrorExamples"
        ),
    ],
    swiftLanguageModes: [.v6]
)
