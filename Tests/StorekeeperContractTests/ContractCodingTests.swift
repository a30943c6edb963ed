import Foundation
import StorekeeperContract
import Testing

/// The contract's decoder names what is wrong: a member at fault, JSON that is
/// not JSON, and a type's own refusal in its own words.
@Suite struct ContractCodingTests {
    /// A type that refuses a value in its own `init(from:)`, as a team's type over these coders may.
    struct Positive: Decodable {
        var amount: Int
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            amount = try container.decode(Int.self, forKey: .amount)
            guard amount > 0 else { throw ContractError("amount: \(amount); it must be above 0") }
        }
        enum CodingKeys: String, CodingKey { case amount }
    }

    @Test func aTypesOwnRefusalIsPassedOnInItsOwnWords() {
        #expect(throws: ContractError("amount: -3; it must be above 0")) {
            try ContractCoding.decode(Positive.self, from: Array(#"{"amount": -3}"#.utf8))
        }
    }

    @Test func aMemberOfTheWrongTypeIsNamed() {
        #expect(throws: ContractError("amount: expected an integer")) {
            try ContractCoding.decode(Positive.self, from: Array(#"{"amount": "3"}"#.utf8))
        }
    }

    @Test func emptyBytesAreNotJSON() {
        #expect(throws: ContractError("empty, not JSON")) {
            try ContractCoding.decode(Positive.self, from: [])
        }
    }
}
