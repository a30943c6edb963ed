import StorekeeperCore
import StorekeeperJSON

/// A JSON value with its path in the document, for reading a compiled policy
/// with errors that say where.
struct JSONField {
    let value: JSONValue
    let path: String

    func fail(_ message: String) -> PolicyLoadError { PolicyLoadError(path: path, message: message) }

    /// The members of an object, checked against the names allowed.
    func object(allowed: Set<String>) throws(PolicyLoadError) -> [String: JSONField] {
        guard case .object(let members) = value else { throw fail("expected an object, found \(Self.kind(value))") }
        var fields: [String: JSONField] = [:]
        for member in members {
            guard allowed.contains(member.key) else {
                let suggestion = Suggestion.nearest(to: member.key, in: allowed.sorted()).map { "; did you mean '\($0)'?" } ?? ""
                throw fail("unknown member '\(member.key)'\(suggestion)")
            }
            fields[member.key] = JSONField(value: member.value, path: path.isEmpty ? member.key : "\(path).\(member.key)")
        }
        return fields
    }

    func array() throws(PolicyLoadError) -> [JSONField] {
        guard case .array(let items) = value else { throw fail("expected an array, found \(Self.kind(value))") }
        return items.enumerated().map { JSONField(value: $1, path: "\(path)[\($0)]") }
    }

    func string() throws(PolicyLoadError) -> String {
        guard case .string(let text) = value else { throw fail("expected a string, found \(Self.kind(value))") }
        return text
    }

    func integer(in range: ClosedRange<Int>) throws(PolicyLoadError) -> Int {
        guard case .integer(let number) = value else { throw fail("expected an integer, found \(Self.kind(value))") }
        guard range.contains(number) else { throw fail("\(number) is out of range; expected \(range.lowerBound) to \(range.upperBound)") }
        return number
    }

    func bool() throws(PolicyLoadError) -> Bool {
        guard case .bool(let flag) = value else { throw fail("expected true or false, found \(Self.kind(value))") }
        return flag
    }

    var isNull: Bool { if case .null = value { true } else { false } }

    func enumeration<Value: RawRepresentable & CaseIterable>(_ type: Value.Type) throws(PolicyLoadError) -> Value where Value.RawValue == String {
        let text = try string()
        guard let value = Value(rawValue: text) else {
            let names = Value.allCases.map(\.rawValue)
            let suggestion = Suggestion.nearest(to: text, in: names).map { "; did you mean '\($0)'?" } ?? ""
            throw fail("'\(text)' is not one of \(names.joined(separator: ", "))\(suggestion)")
        }
        return value
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension Dictionary where Key == String, Value == JSONField {
    /// A member that must be there.
    func required(_ key: String, in parent: String) throws(PolicyLoadError) -> JSONField {
        guard let field = self[key] else { throw PolicyLoadError(path: parent, message: "missing member '\(key)'") }
        return field
    }
}
