import StorekeeperCatalog
@testable import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
import StorekeeperPolicy
@testable import StorekeeperRuntime
import Testing

/// The compiled form: what is written reads back to a policy that
/// dispatches exactly as the one compiled, and a damaged file is refused
/// with where and why.
@Suite struct PolicyFormatTests {
    /// Every product, every situation: same plan (steps, origins, rule), same product.
    func expectSameDispatch(_ loaded: CompiledPolicy, _ compiled: CompiledPolicy, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(loaded.products == compiled.products, sourceLocation: sourceLocation)
        #expect(loaded.rules == compiled.rules, sourceLocation: sourceLocation)
        #expect(loaded.catalog == compiled.catalog && loaded.server == compiled.server, sourceLocation: sourceLocation)
        #expect(loaded.refundedSpendPolicy == compiled.refundedSpendPolicy, sourceLocation: sourceLocation)
        #expect(loaded.features == compiled.features && loaded.balances == compiled.balances, sourceLocation: sourceLocation)
        for product in compiled.products {
            guard let before = compiled.product(id: product.id), let after = loaded.product(id: product.id) else {
                Issue.record("\(product.id) is missing", sourceLocation: sourceLocation)
                continue
            }
            for situation in PlanSituation.all {
                let expected = compiled.plan(for: before, in: situation)
                let actual = loaded.plan(for: after, in: situation)
                #expect(PlanShape(actual) == PlanShape(expected), "\(product.id) \(situation)", sourceLocation: sourceLocation)
                // Resolved to the same plugins.
                #expect(actual.steps.map { "\(type(of: $0.plugin))" } == expected.steps.map { "\(type(of: $0.plugin))" }, sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: EngineFixtures.exampleCatalogs)
    func exampleCatalogsReadBackToTheSameDispatch(name: String) throws {
        let compiled = try PolicyCompiler(plugins: EngineFixtures.plugins).compile(try EngineFixtures.example(name))
        let json = PolicyEncoder().encode(compiled)
        let decoder = PolicyDecoder(plugins: EngineFixtures.plugins)
        expectSameDispatch(try decoder.decode(json), compiled)
        // Compact output reads back the same, and writing again is stable.
        let compact = PolicyEncoder(indentation: nil).encode(compiled)
        expectSameDispatch(try decoder.decode(compact), compiled)
        #expect(PolicyEncoder().encode(try decoder.decode(json)) == json)
    }

    static let rules = """
        rules:
          - name: audit-consumables
            when: {type: consumable, state: purchased}
            add: {after: grant, steps: [audit-log]}
          - name: quiet-cancel
            when: {state: failed, error: payment-cancelled}
            do: [audit-log, finish]
          - name: sync
            when: {product: "p3*", state: restored}
            add: {before: finish, steps: [sync-server]}
        """

    @Test func rulesAndPluginStepsReadBackToTheSameDispatch() throws {
        let compiled = try PolicyCompiler(plugins: EngineFixtures.plugins).compile(try EngineFixtures.everyShape(rules: Self.rules))
        let json = PolicyEncoder().encode(compiled)
        let loaded = try PolicyDecoder(plugins: EngineFixtures.plugins).decode(json)
        expectSameDispatch(loaded, compiled)
        let product = try #require(loaded.product(id: "p1"))
        #expect(loaded.plan(for: product, state: .purchased).steps.contains { $0.plugin is RecordingStep })
    }

    @Test func aStepWithNoPluginIsRefusedUnlessDeclared() throws {
        let compiled = try PolicyCompiler(plugins: EngineFixtures.plugins).compile(try EngineFixtures.everyShape(rules: Self.rules))
        let json = PolicyEncoder().encode(compiled)
        let error = #expect(throws: PolicyLoadError.self) { try PolicyDecoder().decode(json) }
        #expect(error?.message.contains("no plugin is registered for the step 'audit-log'") == true)
        #expect(error?.path.hasPrefix("plans[") == true)
        // A reader that only explains declares what it lacks.
        let declared = try PolicyDecoder(declaresUnknownSteps: true).decode(json)
        let step = try #require(declared.plans.flatMap(\.steps).first { $0.name == "audit-log" })
        #expect(step.plugin is DeclaredStep)
    }

    // MARK: Damaged documents

    func document(_ edit: (inout [(key: String, value: JSONValue)]) -> Void) throws -> String {
        let compiled = try PolicyCompiler(plugins: EngineFixtures.plugins).compile(try EngineFixtures.example("rocket-racer"))
        guard case .object(var members) = PolicyEncoder().document(compiled) else {
            Issue.record("not an object")
            return ""
        }
        edit(&members)
        return JSONWriter().serialize(.object(members))
    }

    func loadError(_ text: String) -> PolicyLoadError? {
        #expect(throws: PolicyLoadError.self) { try PolicyDecoder(plugins: EngineFixtures.plugins).decode(text) }
    }

    func set(_ key: String, _ value: JSONValue, in members: inout [(key: String, value: JSONValue)]) {
        if let index = members.firstIndex(where: { $0.key == key }) { members[index].value = value } else { members.append((key, value)) }
    }

    @Test func notJSONSaysLineAndColumn() {
        let error = loadError("{\n  \"format\": \"storekeeper-policy\",\n  \"version\": 1,,\n}")
        #expect(error?.path == "3:16")
    }

    @Test func anotherDocumentIsNotAPolicy() {
        #expect(loadError("{\"version\": \"2.1.0\", \"runs\": []}")?.message.contains("not a compiled policy") == true)
        #expect(loadError("[1, 2]")?.message.contains("expected a compiled policy") == true)
    }

    @Test func aNewerVersionSaysCompileAgain() throws {
        let error = loadError(try document { set("version", .integer(CompiledPolicy.formatVersion + 1), in: &$0) })
        #expect(error?.path == "version")
        #expect(error?.message.contains("a newer storekeeper wrote it") == true)
    }

    @Test func anUnknownMemberIsNamedWithTheNearest() throws {
        let error = loadError(try document { $0.append(("product", .array([]))) })
        #expect(error?.message == "unknown member 'product'; did you mean 'products'?")
    }

    @Test func aPlanNumberOutOfRangeSaysWhere() throws {
        let text = try document { members in
            guard let index = members.firstIndex(where: { $0.key == "products" }), case .array(var products) = members[index].value,
                  case .object(var first) = products[0], let plans = first.firstIndex(where: { $0.key == "plans" }),
                  case .array(var numbers) = first[plans].value else { return }
            numbers[2] = 9999
            first[plans].value = .array(numbers)
            products[0] = .object(first)
            members[index].value = .array(products)
        }
        let error = loadError(text)
        #expect(error?.path == "products[0].plans[2]")
        #expect(error?.message.contains("out of range") == true)
    }

    @Test func anEditedPlanThatNeverFinishesIsRefused() throws {
        let text = try document { members in
            guard let index = members.firstIndex(where: { $0.key == "plans" }), case .array(var plans) = members[index].value else { return }
            // Drop `finish` from every plan: every purchased plan now never finishes.
            plans = plans.map { plan in
                guard case .object(var fields) = plan, let steps = fields.firstIndex(where: { $0.key == "steps" }),
                      case .array(let list) = fields[steps].value else { return plan }
                fields[steps].value = .array(list.filter {
                    guard case .object(let step) = $0, case .string(let name)? = step.first?.value else { return true }
                    return name != "finish"
                })
                return .object(fields)
            }
            members[index].value = .array(plans)
        }
        let error = loadError(text)
        #expect(error?.message.contains("must finish") == true, "\(String(describing: error))")
        #expect(error?.message.contains("compile the catalog again") == true, "says how to get a policy that loads")
        #expect(error?.path.hasPrefix("products[0].plans[") == true)
    }

    @Test func aStepThatCannotRunForItsProductIsRefused() throws {
        // `grant` put into every plan: a non-consumable grants nothing.
        let text = try document { members in
            guard let index = members.firstIndex(where: { $0.key == "plans" }), case .array(var plans) = members[index].value else { return }
            plans = plans.map { plan in
                guard case .object(var fields) = plan, let steps = fields.firstIndex(where: { $0.key == "steps" }),
                      case .array(let list) = fields[steps].value else { return plan }
                fields[steps].value = .array([.object([("step", .string("grant"))])] + list)
                return .object(fields)
            }
            members[index].value = .array(plans)
        }
        let error = loadError(text)
        #expect(error?.message.contains("`grant` cannot run") == true, "\(String(describing: error))")
    }

    @Test func aBadEnumValueIsNamedWithTheNearest() throws {
        let text = try document { members in
            guard let index = members.firstIndex(where: { $0.key == "products" }), case .array(var products) = members[index].value,
                  case .object(var first) = products[0], let type = first.firstIndex(where: { $0.key == "type" }) else { return }
            first[type].value = "consumabel"
            products[0] = .object(first)
            members[index].value = .array(products)
        }
        let error = loadError(text)
        #expect(error?.path == "products[0].type")
        #expect(error?.message.contains("did you mean 'consumable'?") == true)
    }

    @Test func theSituationsOfAnotherVersionAreRefused() throws {
        let error = loadError(try document { set("situations", .array([["state": "purchased"]]), in: &$0) })
        #expect(error?.path == "situations")
    }

    @Test func aCompiledPolicyIsToldApartByItsFormatMember() throws {
        let json = PolicyEncoder().encode(try PolicyCompiler(plugins: EngineFixtures.plugins).compile(try EngineFixtures.example("inkwell")))
        let decoder = PolicyDecoder()
        #expect(try decoder.compiledPolicy(in: Array(json.utf8)) != nil)
        #expect(try decoder.compiledPolicy(in: Array(("\n  \t" + json).utf8)) != nil)
        // A catalog written as JSON, a flow-style YAML catalog, and YAML proper are catalogs, even named .json.
        #expect(try decoder.compiledPolicy(in: Array(#"{"catalog": "shop", "format": 1}"#.utf8)) == nil)
        #expect(try decoder.compiledPolicy(in: Array("{catalog: shop, app: {bundle-id: com.example.shop}}".utf8)) == nil)
        #expect(try decoder.compiledPolicy(in: Array("catalog: shop\n".utf8)) == nil)
    }
}
