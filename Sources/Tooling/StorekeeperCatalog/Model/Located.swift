import StorekeeperCore
public import StorekeeperDiagnostics

/// A value with the place in the source it was read from, so that every check
/// after decoding can point the author at the text to change.
public struct Located<Value> {
    /// The decoded value.
    public var value: Value
    /// Where it was written.
    public var range: SourceRange

    /// Creates a located value.
    public init(_ value: Value, at range: SourceRange) {
        self.value = value
        self.range = range
    }

    /// Where the value starts.
    public var location: SourceLocation { range.start }
}

extension Located: Sendable where Value: Sendable {}
extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
