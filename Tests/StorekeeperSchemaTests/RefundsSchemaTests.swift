import Foundation
import StorekeeperCore
import StorekeeperJSON
@testable import StorekeeperSchema
import Testing

/// The schema's `refunds` follows the decoder: the same values accepted and
/// refused, the vocabulary from `RefundedSpendPolicy` itself, `owe` the default.
@Suite struct RefundsSchemaTests {
    /// `base` with a consumable and `refunds` written as `VALUE` (a whole line).
    static let template = CatalogVariant.base(replacing: "features: [gold]", with: "features: [gold]\nbalances: [coins]\nVALUE")

    static let variants = [
        CatalogVariant(
            field: "refunds: {spent-balance: VALUE}", template: template.replacingOccurrences(of: "VALUE", with: "refunds: {spent-balance: VALUE}"),
            values: ["owe", "forgive", "\"owe\"", "'forgive'", "Owe", "forgve", "owed", "none", "\"\"", "~", "true", "1", "[owe]", "{a: b}"]),
        CatalogVariant(
            field: "refunds", template: template,
            values: ["refunds: {}", "refunds: {spent-balance: owe}", "refunds: owe", "refunds: [owe]", "refunds:", "refunds: {spent-balances: owe}",
                     "refunds: {spent-balance: owe, rounding: nearest}", "refund: {spent-balance: owe}"]),
    ]

    @Test(arguments: variants)
    func theCLIAndTheSchemaAcceptTheSameValues(_ variant: CatalogVariant) throws {
        let verdicts = try variant.verdicts()
        let disagreements = verdicts.filter { $0.cliAccepts != $0.schemaAccepts }
        #expect(disagreements.isEmpty, "\(variant.field):\n\(disagreements.map(\.description).joined(separator: "\n"))")
        #expect(verdicts.filter(\.cliAccepts).count >= 2 && verdicts.contains { !$0.cliAccepts }, "\(verdicts)")
    }

    @Test func theVocabularyAndTheDefaultAreTheDecoders() throws {
        let refunds = try #require(Self.member("refunds", of: CatalogSchema.document, under: "properties"))
        let spentBalance = try #require(Self.member("spent-balance", of: refunds, under: "properties"))
        #expect(Self.member("enum", of: spentBalance) == .array(RefundedSpendPolicy.allCases.map { .string($0.rawValue) }))
        #expect(Self.member("default", of: spentBalance) == .string(RefundedSpendPolicy.default.rawValue))
        #expect(Self.member("additionalProperties", of: refunds) == .bool(false))
        // Only the catalog file may set it: a fragment's keys leave it out.
        #expect(!TopLevelSchema.fragmentKeys.contains("refunds"))
    }

    /// `object[name]`, or `object[container][name]`.
    static func member(_ name: String, of value: JSONValue, under container: String? = nil) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        if let container {
            return members.first { $0.key == container }.flatMap { member(name, of: $0.value) }
        }
        return members.first { $0.key == name }?.value
    }
}
