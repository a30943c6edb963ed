import StorekeeperCatalog
@testable import StorekeeperCompiler
import StorekeeperCore
import StorekeeperJSON
@testable import StorekeeperRuntime
import Testing

/// The catalog's `refunds: {spent-balance: ...}` reaches the compiled policy
/// (`CompiledPolicy.refundedSpendPolicy`), is written as `refunds` in
/// format version 3, read back, and refused when missing, misspelt or from
/// a version-2 file, which has no such member.
@Suite struct RefundedSpendPolicyFormatTests {
    /// A one-product catalog with `refunds` written as given (nil: left out).
    static func catalog(refunds: String?) throws -> Catalog {
        let header = EngineFixtures.header + (refunds.map { "refunds: \($0)\n" } ?? "")
        let product = EngineFixtures.product(id: "coins.100", type: "consumable", delivery: "{model: built-in, grants: {coins: 100}}",
                                             persistence: "app-state", restore: "none")
        return try EngineFixtures.catalog(header + "products:\n" + product)
    }

    static func compiled(refunds: String?) throws -> CompiledPolicy {
        try PolicyCompiler(plugins: EngineFixtures.plugins).compile(try catalog(refunds: refunds))
    }

    /// The document's top-level members, as the encoder writes them.
    static func members(_ policy: CompiledPolicy) throws -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = PolicyEncoder().document(policy) else {
            Issue.record("not an object")
            return []
        }
        return members
    }

    static func decode(_ members: [(key: String, value: JSONValue)]) throws -> CompiledPolicy {
        try PolicyDecoder(plugins: EngineFixtures.plugins).decode(JSONWriter().serialize(.object(members)))
    }

    static func replacing(_ key: String, with value: JSONValue?, in members: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        members.compactMap { member in
            guard member.key == key else { return member }
            return value.map { (key, $0) }
        }
    }

    @Test(arguments: [(nil, RefundedSpendPolicy.owe), ("{}", .owe), ("{spent-balance: owe}", .owe), ("{spent-balance: forgive}", .forgive)] as [(String?, RefundedSpendPolicy)])
    func theCatalogsChoiceIsCompiledWrittenAndReadBack(refunds: String?, expected: RefundedSpendPolicy) throws {
        let compiled = try Self.compiled(refunds: refunds)
        #expect(compiled.refundedSpendPolicy == expected)

        // Written out even when the catalog leaves it out, spelt as in the catalog.
        let members = try Self.members(compiled)
        let written = try #require(members.first { $0.key == "refunds" }?.value)
        #expect(written == .object([("spent-balance", .string(expected.rawValue))]))
        // After `server`, before `features`: the order docs/policy-format.md shows.
        #expect(members.map(\.key).prefix(7) == ["format", "version", "catalog", "files", "server", "refunds", "features"])

        for text in [PolicyEncoder().encode(compiled), PolicyEncoder(indentation: nil).encode(compiled)] {
            let loaded = try PolicyDecoder(plugins: EngineFixtures.plugins).decode(text)
            #expect(loaded.refundedSpendPolicy == expected)
            #expect(PolicyEncoder().encode(loaded) == PolicyEncoder().encode(compiled))
        }
    }

    @Test func theTwoChoicesMakeDifferentDocuments() throws {
        let owe = PolicyEncoder().encode(try Self.compiled(refunds: "{spent-balance: owe}"))
        let forgive = PolicyEncoder().encode(try Self.compiled(refunds: "{spent-balance: forgive}"))
        #expect(owe != forgive)
        #expect(forgive.contains("\"spent-balance\": \"forgive\""))
    }

    @Test func theFormatIsVersionThree() throws {
        #expect(CompiledPolicy.formatVersion == 3)
        let members = try Self.members(try Self.compiled(refunds: nil))
        #expect(members.first { $0.key == "version" }?.value == .integer(3))
    }

    @Test func aVersionTwoFileIsRefusedSayingWhatItLacks() throws {
        // A version-2 file: the same document without `refunds`, as version 2 wrote it.
        let members = Self.replacing("refunds", with: nil, in: Self.replacing("version", with: .integer(2), in: try Self.members(try Self.compiled(refunds: nil))))
        let error = #expect(throws: PolicyLoadError.self) { try Self.decode(members) }
        #expect(error?.path == "version")
        #expect(error?.message.contains("format version 2 cannot be read") == true, "\(String(describing: error))")
        #expect(error?.message.contains("an older storekeeper wrote it") == true)
        #expect(error?.message.contains("`refunds`") == true)
        #expect(error?.message.contains("this version reads 3: compile the catalog again") == true)
    }

    @Test func aVersionOneFileIsRefusedToo() throws {
        let members = Self.replacing("version", with: .integer(1), in: try Self.members(try Self.compiled(refunds: nil)))
        let error = #expect(throws: PolicyLoadError.self) { try Self.decode(members) }
        #expect(error?.message.contains("format version 1 cannot be read (an older storekeeper wrote it, without the `verification-failed`") == true,
                "\(String(describing: error))")
    }

    @Test func aVersionThreeFileWithoutRefundsIsRefused() throws {
        let members = Self.replacing("refunds", with: nil, in: try Self.members(try Self.compiled(refunds: nil)))
        let error = #expect(throws: PolicyLoadError.self) { try Self.decode(members) }
        #expect(error?.path == "")
        #expect(error?.message == "missing member 'refunds'")
    }

    @Test(arguments: [
        (JSONValue.object([("spent-balance", "forgve")]), "refunds.spent-balance", "'forgve' is not one of owe, forgive; did you mean 'forgive'?"),
        (.object([("spent-balance", .integer(1))]), "refunds.spent-balance", "expected a string, found a number"),
        (.object([]), "refunds", "missing member 'spent-balance'"),
        (.object([("spent-balance", "owe"), ("spent-balances", "owe")]), "refunds", "unknown member 'spent-balances'; did you mean 'spent-balance'?"),
        (.string("owe"), "refunds", "expected an object, found a string"),
        (.null, "refunds", "expected an object, found null"),
    ])
    func aDamagedRefundsIsRefusedWhereItIs(value: JSONValue, path: String, message: String) throws {
        let members = Self.replacing("refunds", with: value, in: try Self.members(try Self.compiled(refunds: nil)))
        let error = #expect(throws: PolicyLoadError.self) { try Self.decode(members) }
        #expect(error?.path == path)
        #expect(error?.message == message)
    }
}
