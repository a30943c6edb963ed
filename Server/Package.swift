// swift-tools-version:6.1
import PackageDescription

// storekeeper-server: the server half of Storekeeper, a package of its own so
// that an app depending on Storekeeper never resolves the server's
// dependencies. It depends on the main package by path.
//
// - Sources/StorekeeperVerification: App Store signed data (JWS, x5c chain to
//   Apple's root, Apple's marker OIDs, bundle, environment, app id).
// - Sources/storekeeper-server-benchmark: verifications per second against
//   Apple's Python library on the same payloads.

let package = Package(
    name: "storekeeper-server",
    platforms: [.macOS(.v13)],
    products: [
        // Verifying StoreKit 2 transactions, renewal info and App Store Server Notifications V2.
        .library(name: "StorekeeperVerification", targets: ["StorekeeperVerification"]),
    ],
    dependencies: [
        .package(name: "storekeeper", path: ".."),
        // The same swift-crypto range as the main package's, so both resolve to one version.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        // The signed-data verifier: JWS ES256, the x5c chain (swift-certificates), the payloads' types.
        .target(
            name: "StorekeeperVerification",
            dependencies: [
                .product(name: "StorekeeperJSON", package: "storekeeper"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            // Apple Root CA - G3, the default trusted root.
            resources: [.copy("Resources/AppleRootCA-G3.cer")]
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
            exclude: ["time_verifier.py"]
        ),
        // Decisions compared case by case with Apple's App Store Server Library (Python) as the oracle.
        .testTarget(
            name: "StorekeeperVerificationTests",
            dependencies: [
                "StorekeeperVerification",
                .product(name: "StorekeeperTestChain", package: "storekeeper"),
                .product(name: "StorekeeperChildProcess", package: "storekeeper"),
                .product(name: "StorekeeperJSON", package: "storekeeper"),
                .product(name: "StorekeeperCore", package: "storekeeper"),
                .product(name: "StorekeeperSimulatedStore", package: "storekeeper"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
