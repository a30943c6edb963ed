import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON

/// Constructors for the JSON Schema shapes the catalog schema is made of,
/// so that each part reads as the format it describes. Members are written
/// in a fixed order (description first, then type, then the rest), which
/// keeps the printed schema byte for byte the same from run to run.
enum SchemaKeywords {
    /// `{"$ref": "#/$defs/NAME"}`, with a description of its own for this
    /// place when given (draft 2020-12 lets `$ref` have siblings).
    static func reference(_ name: String, _ description: String? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let description { members.append(("description", .string(description))) }
        members.append(("$ref", .string("#/$defs/\(name)")))
        return .object(members)
    }

    /// A mapping whose keys are exactly `properties` (any other is an error,
    /// as `unknown-key` is in the CLI), `required` among them.
    static func closedObject(
        _ description: String, properties: [(key: String, value: JSONValue)], required: [String] = [],
        more: [(key: String, value: JSONValue)] = []
    ) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("description", .string(description)), ("type", "object"), ("properties", .object(properties)),
        ]
        if !required.isEmpty { members.append(("required", strings(required))) }
        members.append(("additionalProperties", false))
        return .object(members + more)
    }

    /// One of a vocabulary's spellings, each with its description for
    /// completion and hover (`enumDescriptions`, a VS Code extension that
    /// the YAML language server reads; other validators ignore it).
    static func enumeration<Value: SchemaDescribed>(
        _ type: Value.Type, _ description: String, default value: Value? = nil, cases: [Value]? = nil
    ) -> JSONValue {
        let cases = cases ?? Array(Value.allCases)
        var members: [(key: String, value: JSONValue)] = [
            ("description", .string(description)), ("type", "string"),
            ("enum", strings(cases.map(\.spelling))),
            ("enumDescriptions", strings(cases.map(\.schemaDescription))),
        ]
        if let value { members.append(("default", .string(value.spelling))) }
        return .object(members)
    }

    /// Text matching a pattern, with the sentence an editor shows when it
    /// does not (`patternErrorMessage`, a VS Code extension).
    static func patterned(_ description: String, pattern: String, message: String, types: [String] = ["string"], examples: [String] = []) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("description", .string(description)), ("type", typeValue(types))]
        members.append(("pattern", .string(pattern)))
        members.append(("patternErrorMessage", .string(message)))
        if !examples.isEmpty { members.append(("examples", strings(examples))) }
        return .object(members)
    }

    /// A whole number in a range.
    static func integer(_ description: String, in range: ClosedRange<Int>, default value: Int? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("description", .string(description)), ("type", "integer"),
            ("minimum", .integer(range.lowerBound)), ("maximum", .integer(range.upperBound)),
        ]
        if let value { members.append(("default", .integer(value))) }
        return .object(members)
    }

    /// A list of names, none twice.
    static func list(_ description: String, of items: JSONValue, atLeastOne: Bool = false, unique: Bool = false) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("description", .string(description)), ("type", "array"), ("items", items)]
        if atLeastOne { members.append(("minItems", 1)) }
        if unique { members.append(("uniqueItems", true)) }
        return .object(members)
    }

    /// `{"if": condition, "then": consequence}`.
    static func when(_ condition: JSONValue, then consequence: JSONValue) -> JSONValue {
        ["if": condition, "then": consequence]
    }

    /// The condition "this mapping's `key` is `value`".
    static func keyEquals(_ key: String, _ value: String) -> JSONValue {
        let constant: JSONValue = ["const": .string(value)]
        return ["properties": .object([(key: key, value: constant)]), "required": [.string(key)]]
    }

    /// Keys that may not appear: `false` for each, so that editors say
    /// "Property X is not allowed" at the key, where the CLI reports `not-applicable`.
    static func forbidden(_ keys: [String]) -> JSONValue {
        .object(keys.map { (key: $0, value: JSONValue.bool(false)) })
    }

    /// An array of strings.
    static func strings(_ values: [String]) -> JSONValue {
        .array(values.map(JSONValue.string))
    }

    private static func typeValue(_ types: [String]) -> JSONValue {
        types.count == 1 ? .string(types[0]) : strings(types)
    }
}
