import Foundation
import StorekeeperCatalog
@testable import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperRuntime
import Testing

/// docs/embedding.md's example is `EmbeddingExample.swift`, word for word,
/// and does what the page says on the real catalog.
@Suite struct EmbeddingTests {
    static let catalogPath = EngineFixtures.packageRoot + "/Catalogs/rocket-racer/catalog.yaml"
    static let purchase = TransactionInfo(id: "t1", productID: "com.example.rocketracer.coins.500", state: .purchased, quantity: 2)

    @Test func thePageShowsTheExampleThatIsCompiled() throws {
        let reader = FileSystemReader()
        let page = String(decoding: try reader.read(EngineFixtures.packageRoot + "/docs/embedding.md", limit: 1 << 20), as: UTF8.self)
        let example = String(decoding: try reader.read(EngineFixtures.packageRoot + "/Tests/StorekeeperCompilerTests/EmbeddingExample.swift", limit: 1 << 20), as: UTF8.self)
        #expect(page.contains("```swift\n" + example + "```"), "docs/embedding.md no longer shows EmbeddingExample.swift")
    }

    static let expected: [Effect] = [
        .record(PersistenceRecord(strategy: .appState, key: "com.example.rocketracer.coins.500", value: .transaction(id: "t1", quantity: 2))),
        .grant(balance: "coins", amount: 1000),
        .custom(step: "audit-log", detail: "com.example.rocketracer.coins.500 x2"),
        .notify(.purchased),
        .finish,
    ]

    @Test func theExampleDeliversAPurchaseFromTheCatalog() async throws {
        let policy = try loadRocketRacerPolicy(from: Self.catalogPath)
        #expect(try await effects(of: Self.purchase, in: policy) == Self.expected)
    }

    @Test func theExampleDeliversTheSameFromTheCompiledPolicy() async throws {
        let compiled = try loadRocketRacerPolicy(from: Self.catalogPath)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("storekeeper-embedding-\(UUID().uuidString).json").path
        try PolicyEncoder().encode(compiled).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loaded = try loadRocketRacerPolicy(from: path)
        #expect(try await effects(of: Self.purchase, in: loaded) == Self.expected)
    }

    @Test func withoutThePluginTheCatalogDoesNotLoad() throws {
        let error = #expect(throws: PolicyLoaderError.self) { try PolicyLoader().load(contentsOf: Self.catalogPath) }
        guard case .invalidCatalog(let diagnostics)? = error else { return }
        #expect(diagnostics.map(\.rule) == ["unknown-step"])
    }

    @Test func aCancelledPaymentJustFinishes() async throws {
        let policy = try loadRocketRacerPolicy(from: Self.catalogPath)
        let cancelled = TransactionInfo(id: "t2", productID: "com.example.rocketracer.noads", state: .failed, error: .paymentCancelled)
        #expect(try await effects(of: cancelled, in: policy) == [.finish])
        let offline = TransactionInfo(id: "t3", productID: "com.example.rocketracer.noads", state: .failed, error: .networkError)
        #expect(try await effects(of: offline, in: policy) == [.presentError(.networkError), .finish])
    }
}
