import Foundation
import StorekeeperJSON

/// The members of a payload object in order, leaving out what is absent, as
/// Apple's payloads leave out fields that do not apply.
struct PayloadMembers {
    private(set) var members: [(key: String, value: JSONValue)] = []

    mutating func add(_ key: String, _ value: String?) {
        if let value { members.append((key, .string(value))) }
    }

    mutating func add(_ key: String, _ value: Int?) {
        if let value { members.append((key, .integer(value))) }
    }

    mutating func add(_ key: String, _ value: Bool?) {
        if let value { members.append((key, .bool(value))) }
    }

    /// A date as Apple writes it: milliseconds since 1970, an integer.
    mutating func add(_ key: String, _ value: Date?) {
        if let value { members.append((key, .integer(Self.milliseconds(value)))) }
    }

    /// A UUID as Apple writes it: lowercase.
    mutating func add(_ key: String, _ value: UUID?) {
        if let value { members.append((key, .string(value.uuidString.lowercased()))) }
    }

    mutating func add(_ key: String, _ value: JSONValue?) {
        if let value { members.append((key, value)) }
    }

    var object: JSONValue { .object(members) }

    /// `date` in whole milliseconds since 1970 (rounded).
    static func milliseconds(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 * 1_000).rounded())
    }
}
