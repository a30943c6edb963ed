import StorekeeperCatalog
import StorekeeperChildProcess
@testable import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
import StorekeeperPolicy
@testable import StorekeeperRuntime
import StorekeeperTestSupport
import Foundation
import Testing

/// The published schema (`docs/policy.schema.json`) and the writer agree:
/// every compiled policy validates, and the schema refuses what the reader refuses.
@Suite struct PolicySchemaTests {
    static let schemaPath = EngineFixtures.packageRoot + "/docs/policy.schema.json"

    /// Exits 0 when valid, 1 listing the errors, 3 when jsonschema is missing.
    static let script = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            print("the Python package jsonschema is not installed"); sys.exit(3)
        with open(sys.argv[1], encoding="utf-8") as f: schema = json.load(f)
        with open(sys.argv[2], encoding="utf-8") as f: document = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        errors = list(cls(schema, format_checker=cls.FORMAT_CHECKER).iter_errors(document))
        for error in errors:
            print("/".join(str(part) for part in error.absolute_path) + ": " + error.message)
        sys.exit(1 if errors else 0)
        """

    static func validate(_ document: String) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("storekeeper-policy-\(UUID().uuidString).json")
        try document.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try ChildProcess(
            "/usr/bin/env", ["python3", "-c", script, schemaPath, file.path],
            standardOutput: .capture(limit: .max), standardError: .capture(limit: .max)
        ).run(timeout: .seconds(300))
        let output = String(decoding: run.standardOutput + run.standardError, as: UTF8.self)
        if run.termination == .exited(3) || run.termination == .exited(127) {
            Issue.record("\(output)\nInstall the validator: python3 -m pip install jsonschema")
        }
        return (run.termination.shellStatus, output)
    }

    @Test(arguments: EngineFixtures.exampleCatalogs)
    func compiledExampleCatalogsMatchTheSchema(name: String) throws {
        let json = PolicyEncoder().encode(try PolicyCompiler(plugins: EngineFixtures.plugins).compile(try EngineFixtures.example(name)))
        let (status, output) = try Self.validate(json)
        #expect(status == 0, "\(output)")
    }

    @Test func aPolicyWithOffersMatchesTheSchemaAndTheSchemaRefusesAnUnknownKind() throws {
        let catalog = try String(contentsOfFile: "\(EngineFixtures.packageRoot)/Catalogs/rocket-racer/catalog.yaml", encoding: .utf8)
        let anchor = "    introductory-offer: {mode: free-trial, period: P1W}\n    family-shareable: true\n"
        try #require(catalog.contains(anchor))
        let offers = "    offers:\n      - {id: pro.comeback, kind: win-back, reference-name: Come Back, mode: free-trial, period: P1M}\n"
        let policy = try PolicyCompiler(plugins: EngineFixtures.plugins).compile(
            try EngineFixtures.catalog(catalog.replacingOccurrences(of: anchor, with: anchor + offers), file: "catalog.yaml"))
        let json = PolicyEncoder().encode(policy)
        try #require(json.contains("\"kind\": \"win-back\""), "the offer is written")
        #expect(try Self.validate(json).status == 0)
        #expect(try Self.validate(json.replacingOccurrences(of: "\"kind\": \"win-back\"", with: "\"kind\": \"introductory\"")).status == 1)
    }

    @Test func aPolicyWithRulesAndPluginStepsMatchesTheSchema() throws {
        let json = PolicyEncoder(indentation: nil).encode(
            try PolicyCompiler(plugins: EngineFixtures.plugins).compile(try EngineFixtures.everyShape(rules: PolicyFormatTests.rules)))
        let (status, output) = try Self.validate(json)
        #expect(status == 0, "\(output)")
    }

    @Test func theSchemaRefusesWhatTheReaderRefuses() throws {
        let compiled = try PolicyCompiler(plugins: EngineFixtures.plugins).compile(try EngineFixtures.example("rocket-racer"))
        guard case .object(let members) = PolicyEncoder().document(compiled) else { return }
        func edited(_ key: String, _ value: JSONValue) -> String {
            JSONWriter().serialize(.object(members.map { $0.key == key ? (key, value) : $0 }))
        }
        for document in [edited("version", .integer(CompiledPolicy.formatVersion + 1)), edited("format", "sarif"), edited("plans", .array([.object([("rule", .null)])])),
                         edited("products", .array([.object([("id", "x")])])),
                         // Issue 15: the server URL by the catalog's rule, and names declared once.
                         edited("server", "http://evil.com\\@localhost/"), edited("server", "javascript:alert(1)"), edited("server", ""),
                         edited("server", "http://example.com"), edited("server", "https://user@host"), edited("features", ["a", "a"])] {
            let (status, _) = try Self.validate(document)
            #expect(status == 1)
            #expect(throws: PolicyLoadError.self) { try PolicyDecoder(plugins: EngineFixtures.plugins).decode(document) }
        }
    }

    @Test func theSchemaRefusesTheProductSettingsTheReaderRefuses() throws {
        let tests = ProductConsistencyTests()
        for (server, index, member, value) in [
            (false, 1, "restore", JSONValue.string("server")), (false, 1, "delivery", "server"),
            (true, 0, "family-shareable", true), (true, 1, "max-quantity", 5), (true, 0, "duration", "P1M"),
            (true, 1, "subscription", .object([("group", "premium"), ("level", 1), ("period", "P1M")])), (true, 0, "record", "receipt"),
            (true, 0, "restore-trigger", "launch"), (true, 1, "content", .object([("source", "bundle"), ("path", "maps"), ("storage", "cache")])),
        ] as [(Bool, Int, String, JSONValue)] {
            let document = try tests.policy(server: server, product: index, member, value)
            let (status, output) = try Self.validate(document)
            #expect(status == 1, "\(member): \(output)")
            #expect(throws: PolicyLoadError.self) { try PolicyDecoder().decode(document) }
        }
        // Unedited, with and without a server, it validates.
        for document in [try tests.policy(product: 0, "max-quantity", 3), try tests.policy(server: false, product: 1, "family-shareable", true)] {
            let (status, output) = try Self.validate(document)
            #expect(status == 0, "\(output)")
        }
    }

    @Test(arguments: ["https://store.example.com:8443/api", "http://localhost:8080", "http://[::1]/", "HTTPS://X.COM"])
    func theSchemaAndTheReaderAcceptTheSameServerURLs(url: String) throws {
        let compiled = try PolicyCompiler(plugins: EngineFixtures.plugins).compile(try EngineFixtures.example("rocket-racer"))
        guard case .object(let members) = PolicyEncoder().document(compiled) else { return }
        let document = JSONWriter().serialize(.object(members.map { $0.key == "server" ? ("server", .string(url)) : $0 }))
        let (status, output) = try Self.validate(document)
        #expect(status == 0, "\(output)")
        #expect(try PolicyDecoder(plugins: EngineFixtures.plugins).decode(document).server == url)
    }

    @Test func slotsFollowTheSituationsInOrder() {
        for (index, situation) in PlanSituation.all.enumerated() {
            #expect(SituationSlot.slot(situation) == index, "\(situation)")
        }
        #expect(SituationSlot.count == PlanSituation.all.count)
    }
}
