import StorekeeperCatalog
@testable import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
import StorekeeperPolicy
@testable import StorekeeperRuntime
import Testing

/// What the adversarial review of issue 4 found, each fixed and kept fixed.
@Suite struct ReviewFindingsTests {
    static let pro = EngineFixtures.product(id: "pro", type: "non-consumable", delivery: "{model: built-in, unlocks: [pro]}", persistence: "receipt", restore: "receipt-refresh")
    static let coins = PolicyCompilerTests.coins

    func refusal(_ rules: String, products: String = pro + coins, plugins: PluginRegistry = PluginRegistry()) throws -> [String] {
        let catalog = try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + products + rules)
        do {
            _ = try PolicyCompiler(plugins: plugins).compile(catalog)
            return []
        } catch {
            return error.diagnostics.map(\.message)
        }
    }

    @Test func aFailedPaymentCannotUnlock() throws {
        let messages = try refusal("""
            rules:
              - name: generous
                when: {state: failed, product: pro}
                do: [unlock, persist, finish]
            """)
        #expect(messages.contains { $0.contains("`unlock`") && $0.contains("`purchased` or `restored`") }, "\(messages)")
    }

    @Test func askToBuyCannotGrantAndARestoreCannotGrantAgain() throws {
        let deferred = try refusal("""
            rules:
              - name: early
                when: {state: deferred, product: coins}
                do: [grant, notify]
            """)
        #expect(deferred.contains { $0.contains("`grant`") }, "\(deferred)")
        let restored = try refusal("""
            rules:
              - name: again
                when: {state: restored, product: coins}
                do: [grant, finish]
            """)
        #expect(restored.contains { $0.contains("`grant`") && $0.contains("`purchased` state") }, "\(restored)")
    }

    @Test func aReplacementThatDeclaresNothingKeepsTheBuiltInsNeeds() throws {
        struct MyDownload: StepPlugin {
            let name = "download"
            func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {}
        }
        var plugins = PluginRegistry()
        try plugins.register(MyDownload())
        #expect(plugins.requirements(ofStep: "download").contains(.downloadableContent))
        let messages = try refusal("""
            rules:
              - name: fetch
                when: {state: purchased, product: pro}
                add: {before: persist, steps: [download]}
            """, plugins: plugins)
        #expect(messages.contains { $0.contains("no content to download") }, "\(messages)")
    }

    // MARK: The decoder

    func policyText(_ edit: (inout [JSONValue]) -> Void) throws -> String {
        let compiled = try PolicyCompiler().compile(try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + Self.pro + Self.coins))
        guard case .object(var members) = PolicyEncoder().document(compiled),
              let index = members.firstIndex(where: { $0.key == "plans" }), case .array(var plans) = members[index].value else { return "" }
        edit(&plans)
        members[index].value = .array(plans)
        return JSONWriter().serialize(.object(members))
    }

    static func plan(_ steps: [String]) -> JSONValue {
        .object([("rule", .null), ("steps", .array(steps.map { .object([("step", .string($0))]) }))])
    }

    @Test func aPurchasedPlanThatDeliversNothingDoesNotLoad() throws {
        // Every plan becomes `finish` alone: the purchased plans now deliver nothing.
        let text = try policyText { plans in plans = plans.map { _ in Self.plan(["finish"]) } }
        let error = #expect(throws: PolicyLoadError.self) { try PolicyDecoder().decode(text) }
        #expect(error?.message.contains("must not finish") == true || error?.message.contains("finishes without") == true, "\(String(describing: error))")
        let purchasedOnly = try policyText { plans in
            // Keep pending plans valid; only what delivers is emptied.
            plans = plans.map { plan in
                guard case .object(let fields) = plan, case .array(let steps)? = fields.last?.value,
                      steps.contains(.object([("step", "persist")])) else { return plan }
                return Self.plan(["notify", "finish"])
            }
        }
        let second = #expect(throws: PolicyLoadError.self) { try PolicyDecoder().decode(purchasedOnly) }
        #expect(second?.message.contains("finishes without `persist`") == true, "\(String(describing: second))")
    }

    @Test func tooLongAPlanIsRefused() throws {
        let text = try policyText { plans in plans.append(Self.plan(Array(repeating: "notify", count: 300) + ["finish"])) }
        let error = #expect(throws: PolicyLoadError.self) { try PolicyDecoder().decode(text) }
        #expect(error?.message.contains("at most 256 steps") == true)
    }

    @Test func manyUnknownStepNamesAreDeclaredInLinearTime() throws {
        // 20,000 distinct names: quadratic declaring took seconds; a set takes milliseconds.
        let names = (0..<20_000).map { "step-\($0)" }
        let text = try policyText { plans in
            for chunk in stride(from: 0, to: names.count, by: 200) {
                plans.append(Self.plan(Array(names[chunk..<chunk + 200]) + ["finish"]))
            }
        }
        let policy = try PolicyDecoder(declaresUnknownSteps: true).decode(text)
        #expect(policy.plugins.extraStepNames.count == 20_000)
    }

    @Test func aProductsRecordsAndContentAreCheckedOnLoad() throws {
        let compiled = try PolicyCompiler().compile(try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + Self.pro))
        guard case .object(var members) = PolicyEncoder().document(compiled) else { return }
        func edited(_ change: (inout [(key: String, value: JSONValue)]) -> Void) -> String {
            var copy = members
            guard let index = copy.firstIndex(where: { $0.key == "products" }), case .array(var products) = copy[index].value,
                  case .object(var product) = products[0] else { return "" }
            change(&product)
            products[0] = .object(product)
            copy[index].value = .array(products)
            return JSONWriter().serialize(.object(copy))
        }
        func set(_ key: String, _ value: JSONValue, in product: inout [(key: String, value: JSONValue)]) {
            if let at = product.firstIndex(where: { $0.key == key }) { product[at].value = value } else { product.insert((key, value), at: 3) }
        }
        let cases: [(String, String)] = [
            (edited { set("unlocks", ["secret"], in: &$0) }, "not one of the policy's features"),
            (edited { set("content", .object([("source", "bundle"), ("path", "../../etc/passwd")]), in: &$0) }, "never leaves its root"),
            (edited { set("id", "bad id\u{1B}[2J", in: &$0) }, "the product id"),
            (edited { set("grants", .array([.object([("balance", "coins"), ("amount", 5)])]), in: &$0) }, "only consumables grant"),
        ]
        for (text, expected) in cases {
            let error = #expect(throws: PolicyLoadError.self) { try PolicyDecoder().decode(text) }
            #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
        }
        // A server record without a server.
        members = members.map { $0.key == "server" ? ("server", .null) : $0 }
        let serverless = edited { set("persistence", "server", in: &$0) }
        let error = #expect(throws: PolicyLoadError.self) { try PolicyDecoder().decode(serverless) }
        #expect(error?.message.contains("no `server`") == true, "\(String(describing: error))")
    }

    @Test func aJSONCatalogIsACatalogNotAPolicy() throws {
        let json = """
            {"catalog": "engine", "app": {"bundle-id": "com.example.app"}, "features": ["pro"],
             "products": [{"id": "pro", "type": "non-consumable", "reference-name": "Pro", "price": "0.99",
               "localizations": {"en-US": {"title": "Pro", "description": "All of it"}},
               "delivery": {"model": "built-in", "unlocks": ["pro"]}, "persistence": "receipt", "restore": "receipt-refresh"}]}
            """
        let policy = try PolicyLoader(reader: InMemorySourceReader(["catalog.json": json])).load(contentsOf: "catalog.json")
        #expect(policy.products.map(\.id) == ["pro"])
    }
}
