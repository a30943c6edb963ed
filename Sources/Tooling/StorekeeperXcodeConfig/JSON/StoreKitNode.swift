import StorekeeperCore
public import StorekeeperDiagnostics

/// A JSON value of a StoreKit configuration file with where it was written:
/// what the reader reports problems against.
public struct StoreKitNode: Sendable {
    /// What a node holds.
    public indirect enum Content: Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A whole number.
        case integer(Int)
        /// A number with a fraction or an exponent, as written.
        case number(String)
        /// A string.
        case string(String)
        /// An array.
        case array([StoreKitNode])
        /// An object, its members in document order.
        case object([Member])
    }

    /// One member of an object, with where its key was written.
    public struct Member: Sendable {
        /// The key.
        public var key: String
        /// The key, quotes included.
        public var keyRange: SourceRange
        /// The value.
        public var value: StoreKitNode
    }

    /// What the node holds.
    public var content: Content
    /// The value's text, from its first character to just after its last.
    public var range: SourceRange

    /// Where the value starts.
    public var location: SourceLocation { range.start }

    /// The value without positions.
    public var value: StoreKitValue {
        switch content {
        case .null: .null
        case .bool(let value): .bool(value)
        case .integer(let value): .integer(value)
        case .number(let text): .number(text)
        case .string(let text): .string(text)
        case .array(let nodes): .array(nodes.map(\.value))
        case .object(let members): .object(members.map { StoreKitValue.Member($0.key, $0.value.value) })
        }
    }

    /// The members, when this is an object.
    public var members: [Member]? {
        if case .object(let members) = content { return members }
        return nil
    }

    /// The elements, when this is an array.
    public var elements: [StoreKitNode]? {
        if case .array(let nodes) = content { return nodes }
        return nil
    }

    /// The member named `key`, when this is an object that has it.
    public subscript(key: String) -> Member? {
        members?.first { $0.key == key }
    }

    /// The kind of value, as messages name it: "a string", "an object".
    public var kindDescription: String {
        switch content {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
