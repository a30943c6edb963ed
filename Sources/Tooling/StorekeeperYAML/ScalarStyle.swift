/// How a scalar was written. Kept so that the decoder can tell `0.99` from
/// `"0.99"` and `true` from `"true"`, and never converts silently.
public enum ScalarStyle: UInt8, Sendable, Hashable {
    /// Unquoted: `price: 0.99`.
    case plain
    /// `'single quoted'`.
    case singleQuoted
    /// `"double quoted"`.
    case doubleQuoted
    /// A `|` block.
    case literal
    /// A `>` block.
    case folded

    /// Whether the author wrote quotes or a block scalar, marking the value as text.
    public var isQuoted: Bool { self != .plain }
}
