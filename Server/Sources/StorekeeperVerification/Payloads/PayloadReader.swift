import Foundation
import StorekeeperJSON

/// Typed, optional access to a payload's members: a member that is absent or
/// `null` reads as nil (Apple's models make every field optional), one of
/// the wrong JSON type is a ``VerificationFailure/Reason/malformedPayload``
/// naming the member, the type found and the type expected.
struct PayloadReader {
    let members: [String: JSONValue]
    /// Where the members are, for messages ("transaction", "notification's data").
    let place: String

    func string(_ key: String) throws(VerificationFailure) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw mistyped(key, other, expected: "a string")
        }
    }

    func integer(_ key: String) throws(VerificationFailure) -> Int64? {
        switch members[key] {
        case nil, .null?: return nil
        case .integer(let value)?: return Int64(value)
        case let other?: throw mistyped(key, other, expected: "an integer")
        }
    }

    func bool(_ key: String) throws(VerificationFailure) -> Bool? {
        switch members[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case let other?: throw mistyped(key, other, expected: "true or false")
        }
    }

    /// A date written as milliseconds since 1970-01-01T00:00:00Z, as Apple writes them.
    func date(_ key: String) throws(VerificationFailure) -> Date? {
        try integer(key).map { Date(timeIntervalSince1970: Double($0) / 1_000) }
    }

    func strings(_ key: String) throws(VerificationFailure) -> [String]? {
        switch members[key] {
        case nil, .null?: return nil
        case .array(let items)?:
            var strings: [String] = []
            for item in items {
                guard case .string(let value) = item else { throw mistyped(key, item, expected: "an array of strings") }
                strings.append(value)
            }
            return strings
        case let other?: throw mistyped(key, other, expected: "an array of strings")
        }
    }

    func object(_ key: String) throws(VerificationFailure) -> PayloadReader? {
        switch members[key] {
        case nil, .null?: return nil
        case .object(let pairs)?:
            var nested = [String: JSONValue](minimumCapacity: pairs.count)
            for pair in pairs { nested[pair.key] = pair.value }
            return PayloadReader(members: nested, place: "\(place)'s \(key)")
        case let other?: throw mistyped(key, other, expected: "an object")
        }
    }

    private func mistyped(_ key: String, _ value: JSONValue, expected: String) -> VerificationFailure {
        let found = switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
        return VerificationFailure(.malformedPayload, "the \(place)'s member '\(key)' is \(found); expected \(expected)")
    }
}
