import Logging

/// How the server writes its log: one line per event, `key=value` pairs (logfmt) or a JSON object.
enum LogFormat: String, Sendable, CaseIterable {
    case logfmt
    case json
}

extension Logger.Level {
    /// Reads `trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`.
    init(setting text: String, origin: String) throws(UsageError) {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw UsageError("\(origin) '\(text)' is not a log level; write one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = level
    }
}
