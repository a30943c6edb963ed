/// When to colour terminal output: the usual `--color auto|always|never` choice.
///
/// The raw values are the spellings a command-line option accepts, so the
/// command-line target can conform this type to its argument protocol without
/// further code.
public enum ColorChoice: String, Sendable, Hashable, CaseIterable {
    /// Colour only when ``TextReporter/shouldUseColor(isTerminal:environment:)`` says so.
    case auto
    /// Always colour, even into a pipe or a file.
    case always
    /// Never colour.
    case never

    /// Whether to colour output under this choice.
    ///
    /// - Parameters:
    ///   - isTerminal: Whether the output stream is a terminal (`isatty`).
    ///   - environment: The process environment, for `NO_COLOR` and `TERM`.
    /// - Returns: `true` for ``always``, `false` for ``never``, and for
    ///   ``auto`` the answer of ``TextReporter/shouldUseColor(isTerminal:environment:)``.
    public func resolve(isTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: TextReporter.shouldUseColor(isTerminal: isTerminal, environment: environment)
        }
    }
}

/// The ANSI SGR sequences the text reporter uses.
enum ANSI {
    static let reset = "\u{1B}[0m"
    static let bold = "\u{1B}[1m"
    static let boldRed = "\u{1B}[1;31m"
    static let boldGreen = "\u{1B}[1;32m"
    static let boldMagenta = "\u{1B}[1;35m"
    static let boldCyan = "\u{1B}[1;36m"
}
