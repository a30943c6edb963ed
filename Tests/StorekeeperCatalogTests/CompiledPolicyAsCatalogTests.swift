import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// Issue 15, item 9: a compiled policy given where a catalog is expected is
/// one error at its `format`, not a catalog error for each of its members.
@Suite struct CompiledPolicyAsCatalogTests {
    static let policy = """
        {
          "format": "storekeeper-policy",
          "version": 1,
          "catalog": "shop",
          "files": ["shop.yaml"],
          "server": null,
          "products": [{"id": "pro", "type": "non-consumable"}]
        }
        """

    @Test(arguments: [
        (policy, 2, 13),
        // Members in another order, and in YAML's block style.
        ("{\"version\": 1, \"catalog\": \"shop\", \"format\": \"storekeeper-policy\", \"x\": [1]}", 1, 45),
        ("catalog: shop\nformat: storekeeper-policy\nrules: 3\n", 2, 9),
    ])
    func aCompiledPolicyIsOneErrorAtItsFormat(text: String, line: Int, column: Int) {
        let loaded = loadCatalog(text, at: "policy.json")
        #expect(loaded.catalog == nil)
        let errors = loaded.diagnostics.filter { $0.rule != YAMLRuleID.syntax }
        #expect(errors.count == 1, "\(loaded.diagnostics)")
        #expect(errors.first?.rule == CatalogRuleID.unsupportedFormat, "\(errors)")
        #expect(errors.first?.message.contains("this is a compiled policy (storekeeper compile's output), not a catalog") == true, "\(errors)")
        #expect(errors.first?.message.contains("`storekeeper explain policy.json`") == true, "\(errors)")
        #expect(errors.first?.location.line == line && errors.first?.location.column == column, "\(errors)")
    }

    @Test func anIncludedCompiledPolicyIsOneErrorToo() {
        let loaded = loadCatalog(validCatalogHeaderIncluding("policy.yaml"), at: "catalog.yaml", with: ["policy.yaml": Self.policy])
        let inPolicy = loaded.diagnostics.filter { $0.location.file == "policy.yaml" }
        #expect(inPolicy.count == 1 && inPolicy.first?.rule == CatalogRuleID.unsupportedFormat, "\(loaded.diagnostics)")
    }

    /// A catalog that includes `fragment` and has one product of its own.
    func validCatalogHeaderIncluding(_ fragment: String) -> String {
        """
        catalog: shop
        app: {bundle-id: com.example.shop}
        include: [\(fragment)]
        features: [pro]
        products:
          - id: com.example.shop.pro
            type: non-consumable
            reference-name: Pro
            price: "0.99"
            localizations: {en-US: {title: Pro, description: All of it}}
            delivery: {model: built-in, unlocks: [pro]}

        """
    }
}
