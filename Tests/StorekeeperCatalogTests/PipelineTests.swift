@testable import StorekeeperCatalog
import StorekeeperDiagnostics
import Testing

/// Large files decode products on a second thread while they parse. The
/// outcome must be exactly that of decoding on one thread: the same
/// products in the same order and the same diagnostics.
@Suite struct PipelineTests {
    /// About 3,000 products (well over the threshold), with problems spread
    /// through them: duplicates, a missing key, an anchored (kept) product,
    /// an alias item, a bad enum value, and defaults written after the list.
    static func largeCatalog() -> String {
        var text = "catalog: big\napp: {bundle-id: com.example.big}\nfeatures: [pro]\nbalances: [coins]\nproducts:\n"
        for index in 0..<3_000 {
            let id = index % 997 == 5 ? "com.example.item.3" : "com.example.item.\(index)"
            // The anchor on its own line names the whole product (before `id:` it would name the key).
            let anchor = index == 1_500 ? "&kept\n    " : ""
            text += "  - \(anchor)id: \(id)\n"
            text += index % 2 == 0 ? "    type: consumable\n" : "    type: non-consumable\n"
            text += "    reference-name: Item \(index)\n    price: \"\(index % 50).99\"\n"
            text += "    localizations: {en-US: {title: Item \(index), description: A useful item}}\n"
            if index % 2 == 0 {
                text += "    delivery: {model: built-in, grants: {coins: \(index + 1)}}\n    persistence: app-state\n    restore: none\n"
            } else {
                text += "    delivery: {model: built-in, unlocks: [pro]}\n"
                if index % 3 == 0 { text += "    persistence: receipt\n    restore: receipt-refresh\n" }
                if index == 1_001 { text += "    restore: restore-transaction\n" }
            }
            if index == 2_222 { text += "  - *kept\n" }
        }
        text += "defaults: {persistence: receipt, restore: receipt-refresh, family-shareable: true}\n"
        return text
    }

    @Test func aPipelinedLoadEqualsASequentialOne() throws {
        let text = Self.largeCatalog()
        #expect(text.utf8.count > 256 << 10)
        let reader = InMemorySourceReader(["big.yaml": text])
        let pipelined = CatalogLoader(reader: reader).load("big.yaml")
        var sequentialLoader = CatalogLoader(reader: reader)
        sequentialLoader.pipelineThreshold = .max
        let sequential = sequentialLoader.load("big.yaml")

        #expect(Diagnostic.normalized(pipelined.diagnostics) == Diagnostic.normalized(sequential.diagnostics))
        #expect(pipelined.catalog == sequential.catalog)
        let rules = Set(pipelined.diagnostics.map(\.rule))
        #expect(rules == ["duplicate-id", "invalid-value", "duplicate-name"])
        let products = try #require(pipelined.catalog?.products)
        #expect(products.count > 2_900)
        // Late defaults reached products finished on the other thread.
        #expect(products.first { $0.type.value == .nonConsumable }?.isFamilyShareable == true)
    }
}
