import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperDiff
import Testing

/// A feature taken from an owned product is an error whether or not the
/// feature stays declared, and the removed declaration's warning says what
/// happens to the kinds of product that unlocked it.
@Suite struct FeatureAndUnlockTests {
    static func catalog(features: String, unlocks: String, type: String = "non-consumable") -> String {
        let persistence = type == "consumable" ? "app-state" : "receipt"
        let restore = type == "consumable" ? "none" : "receipt-refresh"
        return """
            catalog: shop
            app: {bundle-id: com.example.shop}
            features: [\(features)]
            products:
              - id: com.example.shop.garage
                type: \(type)
                reference-name: Garage
                price: "2.99"
                localizations: {en-US: {title: Garage, description: Everything}}
                delivery: {model: built-in, unlocks: [\(unlocks)]}
                persistence: \(persistence)
                restore: \(restore)

            """
    }

    @Test func removingAFeatureWithTheOwnedProductsUnlockIsAnError() throws {
        let old = Self.catalog(features: "ad-free, pro-garage", unlocks: "ad-free, pro-garage")
        let new = Self.catalog(features: "ad-free", unlocks: "ad-free")
        let found = try DiffFixtures.diff(old: old, new: new)
        #expect(found.map(\.rule).sorted() == ["diff-feature-removed", "diff-unlock-dropped"])
        let dropped = try #require(found.first { $0.rule == "diff-unlock-dropped" })
        #expect(dropped.severity == .error)
        #expect(dropped.message.hasPrefix("'com.example.shop.garage' no longer unlocks 'pro-garage'"))
        let removed = try #require(found.first { $0.rule == "diff-feature-removed" })
        // No consumable unlocked it, so the message does not talk about consumables.
        #expect(!removed.message.contains("consumable"))
        #expect(removed.message.contains("people who bought 'com.example.shop.garage' lose it"))
    }

    @Test func aFeatureAConsumableUnlockedIsOnlyTheDeclarationsWarning() throws {
        let old = Self.catalog(features: "ad-free, pro-garage", unlocks: "pro-garage", type: "consumable")
        let new = Self.catalog(features: "ad-free", unlocks: "ad-free", type: "consumable")
        let found = try DiffFixtures.diff(old: old, new: new)
        #expect(found.map(\.rule) == ["diff-feature-removed"])
        #expect(found.first?.message.contains("what consumable 'com.example.shop.garage' unlocked stays under the old name") == true)
        #expect(found.first?.message.contains("people who bought") == false)
    }
}
