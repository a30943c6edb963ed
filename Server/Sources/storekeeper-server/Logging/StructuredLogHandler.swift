import Foundation
import Logging
import StorekeeperJSON

/// A swift-log handler writing one line per event: `key=value` pairs (logfmt) or a JSON object,
/// with the time, the level, the logger's label, the message, then the metadata sorted by key.
///
/// ```
/// time=2026-11-28T02:00:00.000Z level=info label=storekeeper.server message="listening" address=127.0.0.1:8080
/// {"time":"2026-11-28T02:00:00.000Z","level":"info","label":"storekeeper.server","message":"listening","address":"127.0.0.1:8080"}
/// ```
struct StructuredLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level
    var metadataProvider: Logger.MetadataProvider?
    let label: String
    let format: LogFormat
    let writer: LogLineWriter

    init(label: String, level: Logger.Level, format: LogFormat, writer: LogLineWriter) {
        self.label = label
        logLevel = level
        self.format = format
        self.writer = writer
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let fields: [(String, String)] = [
            ("time", Self.timestamp()), ("level", event.level.rawValue), ("label", label), ("message", event.message.description),
        ] + merged.sorted { $0.key < $1.key }.map { ($0.key, $0.value.description) }
        writer.write(format == .json ? Self.json(fields) : Self.logfmt(fields))
    }

    static func logfmt(_ fields: [(String, String)]) -> String {
        fields.map { key, value in "\(key)=\(quotedIfNeeded(value))" }.joined(separator: " ")
    }

    static func json(_ fields: [(String, String)]) -> String {
        JSONWriter(indentation: nil).serialize(.object(fields.map { (key: $0.0, value: .string($0.1)) }))
    }

    /// A logfmt value: bare when it has no space, quote, `=` or control character; else quoted
    /// with JSON's escapes.
    private static func quotedIfNeeded(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.unicodeScalars.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0.value < 0x20 || $0 == "\\" }
        return needsQuotes ? JSONWriter.quoted(value) : value
    }

    private static func timestamp() -> String {
        Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
