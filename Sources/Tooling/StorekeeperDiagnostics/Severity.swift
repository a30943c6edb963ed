/// How serious a diagnostic is. Errors fail a validation run; warnings fail it
/// only under `--strict`; notes never do.
public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case note
    case warning
    case error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
