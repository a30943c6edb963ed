// swift-tools-version:6.1
import PackageDescription

// storekeeper-server: the server half of Storekeeper, a package of its own so
// that an app depending on Storekeeper never resolves the server's
// dependencies. It depends on the main package by path.
//
// - Sources/StorekeeperServerStorage: what the server keeps per user (ledger,
//   balances, spends, records, notifications), on SQLite (GRDB, the default)
//   or PostgreSQL (postgres-nio), behind one protocol.

let package = Package(
    name: "storekeeper-server",
    platforms: [.macOS(.v13)],
    products: [
        // The server's storage: one protocol, SQLite and PostgreSQL.
        .library(name: "StorekeeperServerStorage", targets: ["StorekeeperServerStorage"]),
    ],
    dependencies: [
        .package(name: "storekeeper", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // The ledger's storage: LedgerStorage, SQLiteLedgerStorage (GRDB), PostgresLedgerStorage (postgres-nio).
        .target(
            name: "StorekeeperServerStorage",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // One suite, parameterized over both backends, against SQLite and a real PostgreSQL.
        .testTarget(
            name: "StorekeeperServerStorageTests",
            dependencies: [
                "StorekeeperServerStorage",
                .product(name: "StorekeeperChildProcess", package: "storekeeper"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
