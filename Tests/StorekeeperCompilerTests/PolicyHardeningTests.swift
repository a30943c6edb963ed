import StorekeeperCatalog
@testable import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
@testable import StorekeeperRuntime
import Foundation
import Testing

/// Issue 15: a compiled policy's server URL, its grants and declarations,
/// how a file is recognised as a policy, and the size limit its writer and
/// reader share.
@Suite struct PolicyHardeningTests {
    static let coins = PolicyCompilerTests.coins

    /// A compiled policy (the engine's header and `coins`) as a document, edited.
    func policy(_ edit: (inout [(key: String, value: JSONValue)]) -> Void = { _ in }) throws -> String {
        let compiled = try PolicyCompiler().compile(try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + Self.coins))
        guard case .object(var members) = PolicyEncoder().document(compiled) else { return "" }
        edit(&members)
        return PolicyEncoder().serialize(.object(members))
    }

    func set(_ key: String, _ value: JSONValue, in members: inout [(key: String, value: JSONValue)]) {
        if let index = members.firstIndex(where: { $0.key == key }) { members[index].value = value }
    }

    // MARK: 3. The server URL, by the catalog's rule

    @Test(arguments: [
        ("http://evil.com\\@localhost/", "backslash"), ("javascript:alert(1)", "not a URL"), ("", "not a URL"),
        ("http://example.com", "uses http"), ("https://user@host", "user name"), ("http://localhost./", "valid host and port"),
        ("https://store.example.com:99999", "valid host and port"), ("https://store.example.com/\u{1B}[2J", "control character"),
    ])
    func aCompiledPolicysServerIsCheckedLikeTheCatalogs(url: String, reason: String) throws {
        let text = try policy { set("server", .string(url), in: &$0) }
        let error = #expect(throws: PolicyLoadError.self) { try PolicyDecoder().decode(text) }
        #expect(error?.path == "server", "\(String(describing: error))")
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
    }

    /// A catalog built in code, not decoded, may hold any server text: the
    /// compiler wrote it into a policy its own reader then refused.
    @Test(arguments: ["javascript:alert(1)", "http://example.com", "https://0x7f.1/"])
    func theCompilerRefusesAServerURLTheReaderWould(url: String) throws {
        var catalog = try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + Self.coins)
        let server = try #require(catalog.server)
        catalog.server = Server(url: Located(url, at: server.url.range), identity: server.identity, location: server.url.range.start)
        let error = #expect(throws: PolicyCompilationError.self) { try PolicyCompiler().compile(catalog) }
        #expect(error?.diagnostics.map(\.rule) == ["insecure-url"], "\(String(describing: error))")
    }

    @Test(arguments: ["https://store.example.com", "https://store.example.com:8443/api", "http://localhost:8080", "http://127.0.0.1/", "http://[::1]:3000"])
    func aGoodServerURLLoads(url: String) throws {
        let text = try policy { set("server", .string(url), in: &$0) }
        let loaded = try PolicyDecoder().decode(text)
        #expect(loaded.server == url)
        #expect(loaded.serverURL?.text == url && loaded.serverURL?.scheme.hasPrefix("http") == true)
    }

    // MARK: 12. Each balance granted once, each name declared once

    @Test func aBalanceGrantedTwiceIsRefused() throws {
        let text = try policy { members in
            guard let index = members.firstIndex(where: { $0.key == "products" }), case .array(var products) = members[index].value,
                  case .object(var product) = products[0], let grants = product.firstIndex(where: { $0.key == "grants" }) else { return }
            product[grants].value = .array([.object([("balance", "coins"), ("amount", 5)]), .object([("balance", "coins"), ("amount", 7)])])
            products[0] = .object(product)
            members[index].value = .array(products)
        }
        let error = #expect(throws: PolicyLoadError.self) { try PolicyDecoder().decode(text) }
        #expect(error?.path == "products[0].grants[1]", "\(String(describing: error))")
        #expect(error?.message.contains("'coins' is granted twice") == true, "\(String(describing: error))")
    }

    @Test(arguments: ["features", "balances"])
    func aNameDeclaredTwiceIsRefused(key: String) throws {
        let text = try policy { set(key, ["pro", "maps", "coins", "gems", "pro", "coins"], in: &$0) }
        let error = #expect(throws: PolicyLoadError.self) { try PolicyDecoder().decode(text) }
        #expect(error?.path.hasPrefix("\(key)[") == true && error?.message.contains("declared twice") == true, "\(String(describing: error))")
    }

    // MARK: 9. A damaged policy is a policy

    /// The policy's text with its first `"catalog": ` member repeated: a duplicate key.
    func damaged(_ text: String, with damage: String) -> String {
        text.replacingOccurrences(of: "\"catalog\": \"engine\",", with: "\"catalog\": \"engine\",\n  \(damage),")
    }

    @Test(arguments: [
        ("\"catalog\": \"again\"", "duplicate"), ("\"x\": 1e999999999", "exponent"),
        ("\"x\": " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40), "nest"),
    ])
    func aDamagedPolicyReportsItsOneJSONErrorWhereItIs(damage: String, words: String) throws {
        let text = damaged(try policy(), with: damage)
        for name in ["policy.json", "policy.out"] {
            let reader = InMemorySourceReader([name: text])
            let error = #expect(throws: PolicyLoaderError.self) { try PolicyLoader(reader: reader).load(contentsOf: name) }
            guard case .invalidPolicy(let path, let problem)? = error else {
                Issue.record("\(name): read as a catalog: \(String(describing: error))")
                continue
            }
            #expect(path == name)
            #expect(problem.line == 5 && problem.column != nil, "\(problem)")
            #expect(problem.message.contains(words), "\(problem)")
            #expect(error?.description.hasPrefix("\(name):5:") == true, "\(String(describing: error))")
        }
    }

    @Test func aJSONNamedPolicyWithItsMembersReorderedIsStillAPolicy() throws {
        // `format` not first, and damaged: the top-level member decides.
        let text = "{\"version\": 1, \"format\": \"storekeeper-policy\", \"version\": 2}"
        let reader = InMemorySourceReader(["policy.json": text])
        let error = #expect(throws: PolicyLoaderError.self) { try PolicyLoader(reader: reader).load(contentsOf: "policy.json") }
        guard case .invalidPolicy(_, let problem)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(problem.line == 1 && problem.message.contains("duplicate"), "\(problem)")
    }

    static let jsonCatalog = """
        {"catalog": "engine", "format": 1, "app": {"bundle-id": "com.example.app"}, "features": ["pro"],
         "products": [{"id": "pro", "type": "non-consumable", "reference-name": "Pro", "price": "0.99",
           "localizations": {"en-US": {"title": "Pro", "description": "All of it"}},
           "delivery": {"model": "built-in", "unlocks": ["pro"]}, "persistence": "receipt", "restore": "receipt-refresh"}]}
        """
    static let flowCatalog = """
        {catalog: engine, format: 1, app: {bundle-id: com.example.app}, features: [pro],
         products: [{id: pro, type: non-consumable, reference-name: Pro, price: "0.99",
           localizations: {en-US: {title: Pro, description: All of it}},
           delivery: {model: built-in, unlocks: [pro]}, persistence: receipt, restore: receipt-refresh}]}
        """

    /// A value with every object's members sorted by key, as `jq -S` writes it.
    static func sortedKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items): .array(items.map(sortedKeys))
        case .object(let members): .object(members.sorted { $0.key < $1.key }.map { ($0.key, sortedKeys($0.value)) })
        default: value
        }
    }

    @Test func aKeySortedPolicyWithAnyNameIsAPolicyAndLoads() throws {
        let text = try policy()
        let sorted = PolicyEncoder().serialize(Self.sortedKeys(try PolicyDecoder().parse(Array(text.utf8))))
        #expect(!sorted.hasPrefix("{\n  \"format\""))
        for name in ["sorted.policy", "sorted.json", "policy"] {
            let loaded = try PolicyLoader(reader: InMemorySourceReader([name: sorted])).load(contentsOf: name)
            #expect(PolicyEncoder().encode(loaded) == text, "\(name)")
        }
    }

    @Test(arguments: [
        ("package.json", #"{"name": "shop", "version": "1.0.0", "dependencies": {"left-pad": "1.3.0"}}"#),
        ("fragment.json", #"{"products": []}"#), ("nested.json", #"{"config": {"format": "storekeeper-policy"}}"#),
        ("string.json", #"{"note": "\"format\": \"storekeeper-policy\""}"#), ("array.json", #"[{"format": "storekeeper-policy"}]"#),
    ])
    func aJSONFileWithoutTheFormatMemberAtTheTopIsNotAPolicyWhateverItsName(name: String, text: String) throws {
        #expect(!PolicyRecognition.isCompiledPolicy(Array(text.utf8)))
        let error = #expect(throws: PolicyLoaderError.self) { try PolicyLoader(reader: InMemorySourceReader([name: text])).load(contentsOf: name) }
        guard case .invalidCatalog? = error else { Issue.record("\(name): \(String(describing: error))"); return }
    }

    @Test func aPolicyOverTheLimitIsRecognisedByItsLeadingBytesWhateverItsName() throws {
        let text = try policy()
        let reader = InMemorySourceReader(["policy.out": text, "catalog.json": Self.jsonCatalog])
        guard case .policyTooLarge(let size) = try PolicyRecognition.examine("policy.out", reader: reader, limit: 100) else {
            Issue.record("not recognised"); return
        }
        #expect(size == text.utf8.count)
        guard case .other = try PolicyRecognition.examine("catalog.json", reader: reader, limit: 100) else { Issue.record("a catalog taken for a policy"); return }
        // The file system reads only the leading bytes.
        let path = "/tmp/storekeeper-recognition-\(getpid()).out"
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        #expect(try FileSystemReader().read(path, leading: 10) == Array(text.utf8.prefix(10)))
        guard case .policyTooLarge = try PolicyRecognition.examine(path, reader: FileSystemReader(), limit: 100) else { Issue.record("not recognised"); return }
    }

    @Test(arguments: [("catalog.json", jsonCatalog), ("catalog.yaml", jsonCatalog), ("catalog.json", flowCatalog), ("catalog.yaml", flowCatalog)])
    func catalogsInJSONOrFlowStyleAreStillCatalogs(name: String, text: String) throws {
        let policy = try PolicyLoader(reader: InMemorySourceReader([name: text])).load(contentsOf: name)
        #expect(policy.products.map(\.id) == ["pro"])
        #expect(!PolicyRecognition.isCompiledPolicy(Array(text.utf8)))
    }

    @Test func theWriterPutsTheFormatFirstSoTheScanFindsIt() throws {
        let text = try policy()
        #expect(text.hasPrefix("{\n  \"format\": \"storekeeper-policy\","))
        #expect(PolicyRecognition.isCompiledPolicy(Array(text.utf8)))
        let compact = PolicyEncoder(indentation: nil).encode(try PolicyDecoder().decode(text))
        #expect(PolicyRecognition.isCompiledPolicy(Array(("\u{FEFF}" + compact).utf8)))
    }

    // MARK: 10. The writer and the reader share the limit

    @Test func theWriterRefusesWhatTheReaderWouldRefuse() throws {
        #expect(PolicyEncoder().maxSize == PolicyFormat.maxSize && PolicyDecoder().maxSize == PolicyFormat.maxSize)
        let compiled = try PolicyCompiler().compile(try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + Self.coins))
        for indentation in [2, nil] as [Int?] {
            let document = PolicyEncoder(indentation: indentation).document(compiled)
            let size = PolicyEncoder(indentation: indentation).serialize(document).utf8.count
            for limit in [size - 1, size] {
                let written = Result { () throws(PolicySizeError) in try PolicyEncoder(indentation: indentation, maxSize: limit).checkedSerialize(document) }
                let text = PolicyEncoder(indentation: indentation).serialize(document)
                let read = Result { () throws(PolicyLoadError) in try PolicyDecoder(maxSize: limit).decode(text) }
                #expect(((try? written.get()) != nil) == (limit == size))
                #expect(((try? read.get()) != nil) == (limit == size))
                if case .failure(let writeError) = written, case .failure(let readError) = read {
                    #expect(writeError.description.contains("over the limit of \(limit) bytes"), "\(writeError)")
                    #expect(writeError.description.contains("split the catalog into several catalogs"), "\(writeError)")
                    #expect(writeError.description.contains("--compact") == (indentation != nil), "\(writeError)")
                    #expect(readError.message.contains("split the catalog into several catalogs"), "\(readError)")
                }
            }
        }
    }

    @Test func aPolicyOverTheLimitIsReportedAsAPolicyNotReadAsACatalog() throws {
        let text = try policy()
        let decoder = PolicyDecoder(maxSize: 100)
        let error = #expect(throws: PolicyLoadError.self) { try decoder.compiledPolicy(in: Array(text.utf8)) }
        #expect(error?.message.contains("the compiled policy is \(text.utf8.count) bytes, over the limit of 100 bytes") == true, "\(String(describing: error))")
    }
}
