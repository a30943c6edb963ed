import Foundation

/// Files of the repository the tests use.
enum RepositoryFiles {
    /// Five levels above this file: Server/Tests/StorekeeperServerCommandTests/Support/.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// A catalog of the repository's, whose app.bundle-id is `com.example.dailyplanet`.
    static var dailyPlanetCatalog: String { root + "/Catalogs/daily-planet/catalog.yaml" }

    /// The same catalog compiled (`storekeeper compile Catalogs/daily-planet/catalog.yaml`): a policy
    /// that does not name its app.
    static var dailyPlanetPolicy: String { root + "/Server/Tests/StorekeeperServerCommandTests/Fixtures/daily-planet.policy.json" }
}
