import StorekeeperCore
import StorekeeperDiagnostics
package import StorekeeperYAML

/// A YAML document converted to the JSON a schema validator checks, with
/// where each value was written: the JSON pointer (RFC 6901) of every node,
/// so that a validator's error path can be told apart by source position.
///
/// Scalars are typed as the YAML language server types them
/// (``CoreSchemaScalar``); merge keys are resolved as Storekeeper resolves
/// them (the language server does too); a key written twice keeps its first
/// value, as Storekeeper does.
package struct YAMLInstance: Sendable {
    /// Where a node was written, and the JSON pointer of its value.
    package struct Location: Sendable, Hashable {
        /// What was written at the position.
        package enum Role: Sendable, Hashable {
            /// A value: a scalar, a list or a mapping.
            case value
            /// A mapping's key; ``pointer`` is the pointer of its value.
            case key
        }

        /// The pointer of the value (for a key, of the value under it).
        package var pointer: String
        package var role: Role
        /// The first line and column of the node, counted from 1.
        package var line: Int
        package var column: Int
    }

    /// The document as JSON.
    package var value: InstanceValue
    /// Every node's position and pointer, in document order. A node reached
    /// twice (through an alias or a merge key) is listed once for each.
    package var locations: [Location]

    /// Converts a document's root node.
    package init(_ root: YAMLNode) {
        var locations: [Location] = []
        value = Self.convert(root, pointer: "", into: &locations)
        self.locations = locations
    }

    /// The pointers of what starts at a line and column.
    package func locations(atLine line: Int, column: Int) -> [Location] {
        locations.filter { $0.line == line && $0.column == column }
    }

    private static func convert(_ node: YAMLNode, pointer: String, into locations: inout [Location]) -> InstanceValue {
        let start = node.location
        locations.append(Location(pointer: pointer, role: .value, line: start.line, column: start.column))
        switch node.kind {
        case .scalar:
            return CoreSchemaScalar.value(of: node)
        case .sequence:
            return .array(node.items.enumerated().map { index, item in
                convert(item, pointer: pointer + "/\(index)", into: &locations)
            })
        case .mapping:
            var members: [(key: String, value: InstanceValue)] = []
            var seen: Set<String> = []
            for pair in node.pairs {
                let key = keyText(pair.key)
                guard seen.insert(key).inserted else { continue }
                let child = pointer + "/" + JSONPointer.escape(key)
                let keyStart = pair.key.location
                locations.append(Location(pointer: child, role: .key, line: keyStart.line, column: keyStart.column))
                members.append((key, convert(pair.value, pointer: child, into: &locations)))
            }
            return .object(members)
        }
    }

    /// A key as the language server names the property: the text of a key
    /// typed as text, and the JSON spelling of one typed otherwise (`1.50:`
    /// is the property `1.5`).
    private static func keyText(_ key: YAMLNode) -> String {
        switch CoreSchemaScalar.value(of: key) {
        case .string(let text): text
        case .integer(let digits): digits
        case .float(let number) where number.rounded() == number && abs(number) < 1e15: String(Int64(number))
        case .float(let number): InstanceValue.number(number)
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .array, .object: key.text ?? ""
        }
    }
}
