/// The words Swift reserves, which an identifier can only be in backticks.
///
/// From "Keywords and Punctuation" in The Swift Programming Language:
/// keywords used in declarations, statements, expressions and types, and
/// patterns (those starting with `#` cannot be made from letters and
/// digits). Context-dependent keywords (`get`, `set`, `some`, `async`...)
/// are ordinary identifiers where generated names appear, so they are not
/// listed; `Type` and `Protocol` cannot arise, since generated member names
/// start with a lower-case letter and type names end in `Catalog`.
enum SwiftKeywords {
    static let reserved: Set<String> = [
        // Declarations.
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        // Statements.
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "switch", "throw", "where", "while",
        // Expressions and types.
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        // Patterns.
        "_",
    ]
}
