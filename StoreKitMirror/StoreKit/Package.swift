// swift-tools-version:6.1
import PackageDescription

// The mirror of Apple's StoreKit (see ../Package.swift), a package of its own so that it is built as Apple's
// StoreKit reaches an app: with library evolution, from another package. SwiftPM lets modules of one package see
// each other's enums as if frozen, so within one package a switch over an enum Apple does not declare @frozen would
// compile without `@unknown default`; across packages it does not, as with the real SDK.
let package = Package(
    name: "AppleStoreKitMirror",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "StoreKit", targets: ["StoreKit"]),
    ],
    targets: [
        // StoreKit2.swift (StoreKit 2) and StoreKit1.swift (the original payment queue).
        .target(name: "StoreKit", path: "Sources/StoreKit", swiftSettings: [.unsafeFlags(["-enable-library-evolution"])]),
    ],
    swiftLanguageModes: [.v6]
)
