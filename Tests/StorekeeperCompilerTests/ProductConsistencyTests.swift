import StorekeeperCatalog
@testable import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
@testable import StorekeeperRuntime
import Testing

/// Issue 15, item 12's class: a compiled policy's product holds only what a
/// catalog can say (the fields of other product types, options of another
/// strategy or source, a server the policy lacks, a restored consumable), and
/// the compiler never writes what its reader refuses.
@Suite struct ProductConsistencyTests {
    /// `coins` (a consumable, products[0]) and `pack` (a non-consumable with
    /// Apple-hosted content, products[1]), compiled and edited.
    func policy(server: Bool = true, product index: Int, _ member: String, _ value: JSONValue) throws -> String {
        let catalog = try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + PolicyCompilerTests.coins + PolicyCompilerTests.pack)
        guard case .object(var members) = PolicyEncoder().document(try PolicyCompiler().compile(catalog)) else { return "" }
        if !server, let at = members.firstIndex(where: { $0.key == "server" }) { members[at].value = .null }
        guard let at = members.firstIndex(where: { $0.key == "products" }), case .array(var products) = members[at].value,
              case .object(var product) = products[index] else { return "" }
        if let field = product.firstIndex(where: { $0.key == member }) { product[field].value = value } else { product.append((member, value)) }
        products[index] = .object(product)
        members[at].value = .array(products)
        return PolicyEncoder().serialize(.object(members))
    }

    @Test func theUneditedPolicyLoads() throws {
        _ = try PolicyDecoder().decode(try policy(product: 0, "max-quantity", 3))
        _ = try PolicyDecoder().decode(try policy(server: false, product: 1, "family-shareable", true))
    }

    @Test(arguments: [
        // Three of the four the review found (a restored consumable is the
        // consumable-restore rule's, which a catalog may suppress).
        (false, 1, "restore", JSONValue.string("server"), "products[1].restore", "restored from your server"),
        (true, 0, "family-shareable", true, "products[0].family-shareable", "family-shareable"),
        (true, 1, "max-quantity", 5, "products[1].max-quantity", "applies only to consumables"),
        // The rest of the class.
        (false, 1, "delivery", "server", "products[1].delivery", "delivered by your server"),
        (true, 0, "duration", "P1M", "products[0].duration", "applies only to non-renewing subscriptions"),
        (true, 1, "subscription", .object([("group", "premium"), ("level", 1), ("period", "P1M")]), "products[1].subscription", "applies only to auto-renewable"),
        (true, 0, "record", "receipt", "products[0].record", "user-defaults and icloud"),
        (true, 0, "restore-trigger", "launch", "products[0].restore-trigger", "restore policy is none"),
        (true, 0, "restore-selection", "user", "products[0].restore-selection", "restore policy is none"),
        (true, 1, "content", .object([("source", "bundle"), ("path", "maps"), ("storage", "cache")]), "products[1].content.storage", "bundle content"),
    ])
    func aSettingNoCatalogCanHoldIsRefusedWhereItIs(server: Bool, index: Int, member: String, value: JSONValue, path: String, words: String) throws {
        let text = try policy(server: server, product: index, member, value)
        let error = #expect(throws: PolicyLoadError.self) { try PolicyDecoder().decode(text) }
        #expect(error?.path == path, "\(String(describing: error))")
        #expect(error?.message.contains(words) == true, "\(String(describing: error))")
    }

    /// `consumable-restore` is a policy rule a catalog may suppress
    /// (docs/configuration.md's example): such a policy compiles and loads.
    @Test func aConsumableThatRestoresIsLeftToItsPolicyRule() throws {
        let coins = PolicyCompilerTests.coins.replacingOccurrences(of: "restore: none", with: "restore: receipt-refresh")
        let catalog = try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + coins)
        let compiled = try PolicyCompiler().compile(catalog, planRuleErrors: [])
        _ = try PolicyDecoder().decode(PolicyEncoder().serialize(PolicyEncoder().document(compiled)))
    }
}
