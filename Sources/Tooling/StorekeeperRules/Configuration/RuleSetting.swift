import StorekeeperCore
import StorekeeperDiagnostics

/// What the configuration says about one rule: off, or on at a severity.
enum RuleSetting: Sendable, Hashable {
    case off
    case on(Severity)

    /// The spellings accepted in the file.
    static let spellings = ["off", "note", "warning", "error"]

    /// The setting a spelling names, if it is one of `spellings`.
    init?(spelling: String) {
        switch spelling {
        case "off": self = .off
        case "note": self = .on(.note)
        case "warning": self = .on(.warning)
        case "error": self = .on(.error)
        default: return nil
        }
    }

    /// The accepted spelling meant by a spelling from another tool (ESLint's
    /// `warn`, `0`/`1`/`2`, a boolean), or the nearest by typing.
    static func suggestion(for text: String) -> String? {
        switch text.lowercased() {
        case "warn", "warnings": return "warning"
        case "info", "information", "hint", "notice": return "note"
        case "0", "false", "no", "none", "disable", "disabled", "ignore": return "off"
        case "1": return "warning"
        case "2", "err", "errors", "fatal": return "error"
        default: return Suggestion.nearest(to: text, in: spellings)
        }
    }
}
