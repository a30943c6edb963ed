import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON

/// A JSON value as a JSON Schema validator sees a YAML document: like
/// ``JSONValue``, with the floating-point numbers that YAML's plain scalars
/// can be (`0.99`, `1e3`, `.inf`).
package indirect enum InstanceValue: Sendable, Equatable {
    /// `null`: an empty value, `~` or `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number, as decimal digits with an optional `-` (any size).
    case integer(String)
    /// A floating-point number (infinities and NaN included).
    case float(Double)
    /// Text.
    case string(String)
    /// A list.
    case array([InstanceValue])
    /// A mapping, its keys in document order.
    case object([(key: String, value: InstanceValue)])

    /// Whether two values are equal, member order included (NaN equals NaN:
    /// both are the same `.nan` a document wrote).
    package static func == (lhs: InstanceValue, rhs: InstanceValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.float(a), .float(b)): a == b || (a.isNaN && b.isNaN)
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// Compact JSON text. Infinities and NaN, which JSON has no spelling
    /// for, are written `Infinity`, `-Infinity` and `NaN`, as Python's
    /// `json` module reads them.
    package var json: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let digits): output += digits
        case .float(let value): output += Self.number(value)
        case .string(let text): output += JSONWriter.quoted(text)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                output += JSONWriter.quoted(member.key) + ":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    /// A double as JSON: Swift's shortest round-trip spelling (`0.99`,
    /// `1e+20`), which JSON's grammar accepts.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return value.description
    }
}
