import StorekeeperCatalog
@testable import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
@testable import StorekeeperRuntime
import Testing

/// The text, JSON and Mermaid renderings of policy explanations, on a small
/// catalog: a consumable whose `purchased` plan a custom rule changes, and a
/// non-consumable on the default plans.
@Suite struct ExplainRendererTests {
    static let shop = """
        catalog: shop
        app: {bundle-id: com.example.shop}
        features: [pro]
        balances: [coins]
        products:
          - id: shop.coins
            type: consumable
            reference-name: Coins
            price: "0.99"
            localizations: {en-US: {title: Coins, description: A pile of coins}}
            delivery: {model: built-in, grants: {coins: 100}}
            persistence: app-state
            restore: none
          - id: shop.pro
            type: non-consumable
            reference-name: Pro
            price: "4.99"
            localizations: {en-US: {title: Pro, description: Every pro feature}}
            delivery: {model: built-in, unlocks: [pro]}
            persistence: receipt
            restore: receipt-refresh
        rules:
          - name: audit-purchases
            when: {state: purchased, type: consumable}
            add: {after: grant, steps: [audit-log]}

        """

    /// A catalog compiled with the `audit-log` step declared.
    static func policy(_ text: String = shop) throws -> CompiledPolicy {
        let loaded = CatalogLoader(reader: InMemorySourceReader(["shop.yaml": text])).load("shop.yaml")
        let errors = loaded.diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)")
        let catalog = try #require(loaded.catalog)
        var plugins = PluginRegistry()
        try plugins.declare(["audit-log"])
        return try PolicyCompiler(plugins: plugins).compile(catalog)
    }

    static func explanation(product: String? = nil, state: TransactionState? = nil) throws -> PolicyExplanation {
        try PolicyExplanation(policy(), product: product, state: state)
    }

    // MARK: - Text

    @Test func textIsATablePerProductWithTheRuleUnderItsPlan() throws {
        let text = ExplanationTextRenderer().render(try Self.explanation())
        #expect(text == """
            shop.coins · consumable · built-in · persist app-state · restore none
              purchasing                  notify → waits
              deferred                    notify → waits
              purchased                   persist → grant → audit-log → notify → finish
                rule 'audit-purchases' (shop.yaml:23:5): audit-log
              restored                    finish
              failed (any other error)    present-error → finish
              failed (payment-cancelled)  finish

            shop.pro · non-consumable · built-in · persist receipt · restore receipt-refresh
              purchasing                  notify → waits
              deferred                    notify → waits
              purchased                   persist → unlock → notify → finish
              restored                    finish
              failed (any other error)    present-error → finish
              failed (payment-cancelled)  finish

            """)
    }

    @Test func textColumnIsAsWideAsTheProductsLongestLabel() throws {
        // Filtered to `purchased`, the longest label is `purchased` itself.
        let text = ExplanationTextRenderer().render(try Self.explanation(product: "shop.pro", state: .purchased))
        #expect(text == """
            shop.pro · non-consumable · built-in · persist receipt · restore receipt-refresh
              purchased  persist → unlock → notify → finish

            """)
    }

    @Test func textEndsWithExactlyOneNewline() throws {
        for explanation in [try Self.explanation(), try Self.explanation(product: "shop.coins", state: .failed)] {
            let text = ExplanationTextRenderer().render(explanation)
            #expect(text.hasSuffix("\n"))
            #expect(!text.hasSuffix("\n\n"))
        }
    }

    @Test func textNamesEveryStepARuleWrote() throws {
        let catalog = Self.shop.replacing(
            "add: {after: grant, steps: [audit-log]}",
            with: "do: [persist, grant, audit-log, notify, finish]")
        let explanation = try PolicyExplanation(Self.policy(catalog), product: "shop.coins", state: .purchased)
        #expect(ExplanationTextRenderer().render(explanation) == """
            shop.coins · consumable · built-in · persist app-state · restore none
              purchased  persist → grant → audit-log → notify → finish
                rule 'audit-purchases' (shop.yaml:23:5): persist, grant, audit-log, notify, finish

            """)
    }

    // MARK: - The failed rows

    @Test func paymentCancelledIsARowApartFromTheOtherErrors() throws {
        let explanation = try Self.explanation(product: "shop.coins", state: .failed)
        let rows = try #require(explanation.products.first?.rows)
        #expect(rows.map(\.label) == ["failed (any other error)", "failed (payment-cancelled)"])
        #expect(rows.map(\.situations.count) == [StoreErrorCode.allCases.count - 1, 1])

        #expect(ExplanationTextRenderer().render(explanation) == """
            shop.coins · consumable · built-in · persist app-state · restore none
              failed (any other error)    present-error → finish
              failed (payment-cancelled)  finish

            """)
        #expect(ExplanationMermaidRenderer().render(explanation) == """
            stateDiagram-v2
                failed --> finished : any other error — present-error → finish
                failed --> finished : payment-cancelled — finish
                finished --> [*]

            """)
    }

    @Test func oneFailedPlanIsOneRowWithoutErrors() throws {
        let catalog = Self.shop + """
              - name: quiet-pro
                when: {state: failed, product: shop.pro}
                do: [finish]

            """
        let explanation = try PolicyExplanation(Self.policy(catalog), product: "shop.pro", state: .failed)
        #expect(ExplanationTextRenderer().render(explanation) == """
            shop.pro · non-consumable · built-in · persist receipt · restore receipt-refresh
              failed  finish
                rule 'quiet-pro' (shop.yaml:26:5): finish

            """)
        #expect(ExplanationMermaidRenderer().render(explanation) == """
            stateDiagram-v2
                failed --> finished : finish*
                finished --> [*]
                note left of failed : * written by rule quiet-pro (shop.yaml line 26, column 5)

            """)
    }

    // MARK: - JSON

    @Test func jsonParsesBackMemberByMember() throws {
        let explanation = try Self.explanation()
        let text = ExplanationJSONRenderer().render(explanation)
        #expect(text.hasSuffix("}\n"))
        #expect(text.hasPrefix("{\n  \"catalog\": \"shop\",\n  \"products\": [\n    {\n      \"id\""))
        let document = try JSONParser().parse(text)

        #expect(keys(document) == ["catalog", "products"])
        #expect(document["catalog"] == "shop")
        let products = try #require(document["products"]?.elements)
        #expect(products.count == 2)

        let coins = products[0]
        #expect(keys(coins) == ["id", "type", "delivery", "persistence", "restore", "plans"])
        #expect(coins["id"] == "shop.coins")
        #expect(coins["type"] == "consumable")
        #expect(coins["delivery"] == "built-in")
        #expect(coins["persistence"] == "app-state")
        #expect(coins["restore"] == "none")
        let plans = try #require(coins["plans"]?.elements)
        #expect(plans.map { $0["label"] } == [
            "purchasing", "deferred", "purchased", "restored", "failed (any other error)", "failed (payment-cancelled)",
        ])
        let rows = try #require(explanation.products.first?.rows)
        #expect(plans.map { $0["plan"] } == rows.map { .integer($0.planNumber) })
        for plan in plans {
            #expect(keys(plan) == ["label", "situations", "plan", "rule", "finishes", "steps"])
        }

        let purchasing = plans[0]
        #expect(purchasing["situations"] == [["state": "purchasing"]])
        #expect(purchasing["rule"] == .null)
        #expect(purchasing["finishes"] == false)
        #expect(purchasing["steps"] == [["step": "notify", "origin": "default"]])

        let purchased = plans[2]
        #expect(purchased["situations"] == [["state": "purchased"]])
        #expect(purchased["rule"] == ["name": "audit-purchases", "file": "shop.yaml", "line": 23, "column": 5])
        #expect(purchased["finishes"] == true)
        #expect(purchased["steps"] == [
            ["step": "persist", "origin": "default"],
            ["step": "grant", "origin": "default"],
            ["step": "audit-log", "origin": "rule", "rule": "audit-purchases", "file": "shop.yaml", "line": 25, "column": 33],
            ["step": "notify", "origin": "default"],
            ["step": "finish", "origin": "default"],
        ])

        let otherErrors = plans[4]
        let situations = try #require(otherErrors["situations"]?.elements)
        #expect(situations.count == StoreErrorCode.allCases.count - 1)
        #expect(situations.first == ["state": "failed", "error": "unknown"])
        #expect(!situations.contains(["state": "failed", "error": "payment-cancelled"]))
        #expect(otherErrors["steps"] == [["step": "present-error", "origin": "default"], ["step": "finish", "origin": "default"]])

        let cancelled = plans[5]
        #expect(cancelled["situations"] == [["state": "failed", "error": "payment-cancelled"]])
        #expect(cancelled["rule"] == .null)
        #expect(cancelled["steps"] == [["step": "finish", "origin": "default"]])

        let pro = products[1]
        #expect(pro["id"] == "shop.pro")
        #expect(pro["restore"] == "receipt-refresh")
        let proPlans = try #require(pro["plans"]?.elements)
        #expect(proPlans.allSatisfy { $0["rule"] == .null })
        #expect(proPlans[2]["steps"] == [
            ["step": "persist", "origin": "default"], ["step": "unlock", "origin": "default"],
            ["step": "notify", "origin": "default"], ["step": "finish", "origin": "default"],
        ])
    }

    @Test func jsonOfAFilteredExplanationHasOnlyThatState() throws {
        let document = try JSONParser().parse(ExplanationJSONRenderer().render(try Self.explanation(state: .purchased)))
        let products = try #require(document["products"]?.elements)
        #expect(products.map { $0["id"] } == ["shop.coins", "shop.pro"])
        for product in products {
            let plans = try #require(product["plans"]?.elements)
            #expect(plans.map { $0["label"] } == ["purchased"])
        }
    }

    // MARK: - Mermaid

    @Test func mermaidDrawsOneProductsTransactionLife() throws {
        let diagram = ExplanationMermaidRenderer().render(try Self.explanation(product: "shop.coins"))
        #expect(diagram.hasSuffix("\n") && !diagram.hasSuffix("\n\n"))
        #expect(diagram.split(separator: "\n", omittingEmptySubsequences: false).dropLast() == [
            "stateDiagram-v2",
            "    [*] --> purchasing : add payment",
            "    purchasing --> deferred",
            "    purchasing --> purchased",
            "    purchasing --> failed",
            "    deferred --> purchased",
            "    deferred --> failed",
            "    [*] --> restored : restore",
            "    note right of purchasing : notify, then waits",
            "    note right of deferred : notify, then waits",
            "    purchased --> finished : persist → grant → audit-log* → notify → finish",
            "    restored --> finished : finish",
            "    failed --> finished : any other error — present-error → finish",
            "    failed --> finished : payment-cancelled — finish",
            "    finished --> [*]",
            "    note left of purchased : * written by rule audit-purchases (shop.yaml line 23, column 5)",
        ])
    }

    @Test func mermaidPutsEachOfSeveralProductsInACompositeState() throws {
        let diagram = ExplanationMermaidRenderer().render(try Self.explanation())
        let lines = diagram.split(separator: "\n").map(String.init)
        #expect(lines.first == "stateDiagram-v2")
        #expect(lines.filter { !$0.hasPrefix("        ") } == [
            "stateDiagram-v2",
            "    state \"shop.coins\" as p0 {",
            "    }",
            "    state \"shop.pro\" as p1 {",
            "    }",
        ])
        let pro = Array(lines.drop(while: { $0 != "    state \"shop.pro\" as p1 {" }).dropFirst().dropLast())
        #expect(pro == [
            "        state \"purchasing\" as p1_purchasing",
            "        state \"deferred\" as p1_deferred",
            "        state \"purchased\" as p1_purchased",
            "        state \"restored\" as p1_restored",
            "        state \"failed\" as p1_failed",
            "        state \"finished\" as p1_finished",
            "        [*] --> p1_purchasing : add payment",
            "        p1_purchasing --> p1_deferred",
            "        p1_purchasing --> p1_purchased",
            "        p1_purchasing --> p1_failed",
            "        p1_deferred --> p1_purchased",
            "        p1_deferred --> p1_failed",
            "        [*] --> p1_restored : restore",
            "        note right of p1_purchasing : notify, then waits",
            "        note right of p1_deferred : notify, then waits",
            "        p1_purchased --> p1_finished : persist → unlock → notify → finish",
            "        p1_restored --> p1_finished : finish",
            "        p1_failed --> p1_finished : any other error — present-error → finish",
            "        p1_failed --> p1_finished : payment-cancelled — finish",
            "        p1_finished --> [*]",
        ])
        #expect(lines.contains("        p0_purchased --> p0_finished : persist → grant → audit-log* → notify → finish"))
        #expect(lines.contains("        note left of p0_purchased : * written by rule audit-purchases (shop.yaml line 23, column 5)"))
        #expect(!lines.contains { $0.contains("note left of p1_") })
    }

    @Test func mermaidOfAFilteredExplanationDrawsThatStateOnly() throws {
        let renderer = ExplanationMermaidRenderer()
        #expect(renderer.render(try Self.explanation(product: "shop.coins", state: .purchased)) == """
            stateDiagram-v2
                purchased --> finished : persist → grant → audit-log* → notify → finish
                finished --> [*]
                note left of purchased : * written by rule audit-purchases (shop.yaml line 23, column 5)

            """)
        #expect(renderer.render(try Self.explanation(product: "shop.pro", state: .purchasing)) == """
            stateDiagram-v2
                [*] --> purchasing : add payment
                note right of purchasing : notify, then waits

            """)
        // A state with no edge is declared, so that its note has a state.
        #expect(renderer.render(try Self.explanation(product: "shop.pro", state: .deferred)) == """
            stateDiagram-v2
                deferred
                note right of deferred : notify, then waits

            """)
        #expect(renderer.render(try Self.explanation(state: .restored)) == """
            stateDiagram-v2
                state "shop.coins" as p0 {
                    state "restored" as p0_restored
                    state "finished" as p0_finished
                    [*] --> p0_restored : restore
                    p0_restored --> p0_finished : finish
                    p0_finished --> [*]
                }
                state "shop.pro" as p1 {
                    state "restored" as p1_restored
                    state "finished" as p1_finished
                    [*] --> p1_restored : restore
                    p1_restored --> p1_finished : finish
                    p1_finished --> [*]
                }

            """)
    }

    @Test func mermaidLabelsHoldNoCharacterMermaidReads() {
        #expect(ExplanationMermaidRenderer.label("a:b;c#d{e}\"f>g<h|i") == "a_b_c_d_e__f_g_h_i")
        #expect(ExplanationMermaidRenderer.label("Catalogs/rocket-racer/catalog.yaml") == "Catalogs/rocket-racer/catalog.yaml")
        #expect(ExplanationMermaidRenderer.label("tab\there, café") == "tab_here, café")
    }

    @Test func mermaidNeverWritesAColonInsideALabel() throws {
        for explanation in [try Self.explanation(), try Self.explanation(product: "shop.coins")] {
            for line in ExplanationMermaidRenderer().render(explanation).split(separator: "\n") {
                #expect(line.filter { $0 == ":" }.count <= 1, "\(line)")
                #expect(!line.contains(";") && !line.contains("#"), "\(line)")
            }
        }
    }
}

/// The keys of a JSON object, in order; empty for anything else.
private func keys(_ value: JSONValue) -> [String] {
    guard case .object(let members) = value else { return [] }
    return members.map(\.key)
}

extension JSONValue {
    /// An object's member, or nil.
    fileprivate subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// An array's elements, or nil.
    fileprivate var elements: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }
}
