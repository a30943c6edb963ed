import StorekeeperCore
public import StorekeeperJSON
/// Renders a ``ValidationReport`` as a SARIF 2.1.0 log, the format GitHub code
/// scanning imports (`github/codeql-action/upload-sarif`).
///
/// The log has one run. Its members, always in this order:
///
/// ```json
/// {
///   "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
///   "version": "2.1.0",
///   "runs": [
///     {
///       "tool": {
///         "driver": {
///           "name": "storekeeper",
///           "version": "1.2.0",
///           "rules": [
///             {
///               "id": "unknown-key",
///               "name": "UnknownKey",
///               "shortDescription": { "text": "…summary…" },
///               "fullDescription": { "text": "…help…" },
///               "help": { "text": "…help…" },
///               "defaultConfiguration": { "level": "error" }
///             }
///           ]
///         }
///       },
///       "columnKind": "unicodeCodePoints",
///       "originalUriBaseIds": { "%SRCROOT%": { "uri": "file:///home/me/app/" } },
///       "results": [
///         {
///           "ruleId": "unknown-key",
///           "ruleIndex": 0,
///           "level": "error",
///           "message": { "text": "unknown key 'pric' in a product; did you mean 'price'?" },
///           "locations": [
///             {
///               "physicalLocation": {
///                 "artifactLocation": { "uri": "Catalogs/game.yaml", "uriBaseId": "%SRCROOT%" },
///                 "region": { "startLine": 5, "startColumn": 5, "endLine": 5, "endColumn": 9 }
///               }
///             }
///           ],
///           "relatedLocations": [
///             {
///               "id": 1,
///               "physicalLocation": { "artifactLocation": { … }, "region": { … } },
///               "message": { "text": "the first definition is here" }
///             }
///           ]
///         }
///       ]
///     }
///   ]
/// }
/// ```
///
/// - `rules` lists each rule id that occurs in the results once, sorted by id;
///   a result's `ruleIndex` is its rule's position there. `name` is the id in
///   UpperCamelCase. The descriptions come from the ``RuleMetadata`` given to
///   ``init(rules:toolVersion:workingDirectory:)``; an id without metadata is
///   described by the id itself, with its most severe result's level as the
///   default. A diagnostic with an empty rule has neither `ruleId` nor
///   `ruleIndex`.
/// - Results keep the report's order. `level` is `error`, `warning` or `note`.
///   The message is the diagnostic's message alone: its notes become
///   `relatedLocations`, numbered from 1, left out when there are none.
/// - Regions are 1-based and count Unicode scalars (`columnKind`);
///   `endColumn` is the column just after the flagged text, so a point has
///   `endColumn == startColumn`. Lines and columns below 1 are raised to 1, an
///   end before the start is moved to the start, and a location whose line is
///   below 1 (no line known) has no `region`.
/// - Paths become URI references (RFC 3986): every UTF-8 byte other than
///   unreserved characters (`A–Z a–z 0–9 - . _ ~`) and `/` is percent-encoded,
///   and empty and `.` segments are dropped. A relative path stays relative,
///   with `uriBaseId` `%SRCROOT%`. An absolute path inside the working
///   directory is made relative to it in the same way; any other absolute
///   path becomes a `file://` URI. A diagnostic whose file is empty has no
///   `locations`; a note whose file is empty has no `physicalLocation`.
/// - `originalUriBaseIds` is present only when an absolute working directory
///   was given; its URI ends with `/`, as SARIF requires of a base.
///
/// The output is pretty-printed by ``JSONWriter`` and ends with a newline;
/// the same report always renders to the same text.
public struct SARIFReporter: Sendable {
    /// The `$schema` of the log.
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    /// The SARIF version of the log.
    public static let sarifVersion = "2.1.0"
    /// The tool's name in `tool.driver.name`.
    public static let toolName = "storekeeper"
    /// The `uriBaseId` of relative paths: the directory they are relative to.
    /// GitHub resolves it to the repository's checkout.
    public static let sourceRootID = "%SRCROOT%"

    /// Descriptions of the rules, by id; the first of two with the same id wins.
    public let rules: [RuleMetadata]
    /// The version of storekeeper, in `tool.driver.version`.
    public let toolVersion: String
    /// The absolute directory relative paths are relative to, or `nil`.
    public let workingDirectory: String?

    private let metadata: [String: RuleMetadata]
    /// The working directory's path segments, when it is absolute.
    private let rootSegments: [String]?

    /// Creates a reporter.
    ///
    /// - Parameters:
    ///   - rules: Descriptions of the rules that results may name; rules that
    ///     produced no result are not listed in the log.
    ///   - toolVersion: The version of storekeeper.
    ///   - workingDirectory: The absolute path of the directory that relative
    ///     paths in the report are relative to, normally the current directory
    ///     and the repository's root. When given, it becomes `%SRCROOT%` and
    ///     absolute paths inside it are made relative. A relative path here is
    ///     ignored, as if `nil` were given.
    public init(rules: [RuleMetadata], toolVersion: String, workingDirectory: String? = nil) {
        self.rules = rules
        self.toolVersion = toolVersion
        self.workingDirectory = workingDirectory
        metadata = Dictionary(rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        rootSegments = workingDirectory.flatMap { $0.hasPrefix("/") ? Self.segments(of: $0) : nil }
    }

    /// The SARIF log of `report`, ending with a newline.
    public func render(_ report: ValidationReport) -> String {
        var output = ""
        JSONWriter().write(document(for: report), to: &output)
        output += "\n"
        return output
    }

    /// The SARIF log of `report` as a value.
    public func document(for report: ValidationReport) -> JSONValue {
        // Each rule id in the results, with its most severe result's severity
        // (the default level of a rule that has no metadata).
        var severities: [String: Severity] = [:]
        for diagnostic in report.diagnostics where !diagnostic.rule.isEmpty {
            severities[diagnostic.rule] = max(severities[diagnostic.rule] ?? .note, diagnostic.severity)
        }
        let ids = severities.keys.sorted()
        let indexes = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        let descriptors = ids.map { id in
            Self.descriptor(
                for: metadata[id]
                    ?? RuleMetadata(id: id, summary: id, help: id, defaultSeverity: severities[id] ?? .warning))
        }

        var run: [(key: String, value: JSONValue)] = [
            (
                "tool",
                [
                    "driver": [
                        "name": .string(Self.toolName),
                        "version": .string(toolVersion),
                        "rules": .array(descriptors),
                    ]
                ]
            ),
            ("columnKind", "unicodeCodePoints"),
        ]
        if let rootSegments {
            let base = "file://" + Self.percentEncoded(Self.absolutePath(rootSegments, directory: true))
            run.append(("originalUriBaseIds", [Self.sourceRootID: ["uri": .string(base)]]))
        }
        run.append(("results", .array(report.diagnostics.map { result(for: $0, ruleIndex: indexes[$0.rule]) })))

        return [
            "$schema": .string(Self.schemaURI),
            "version": .string(Self.sarifVersion),
            "runs": [.object(run)],
        ]
    }

    // MARK: - Rules

    private static func descriptor(for rule: RuleMetadata) -> JSONValue {
        [
            "id": .string(rule.id),
            "name": .string(ruleName(rule.id)),
            "shortDescription": ["text": .string(rule.summary)],
            "fullDescription": ["text": .string(rule.help)],
            "help": ["text": .string(rule.help)],
            "defaultConfiguration": ["level": .string(level(rule.defaultSeverity))],
        ]
    }

    /// The id in UpperCamelCase: `consumable-restore` is `ConsumableRestore`.
    /// Every run of characters other than letters and digits separates words.
    static func ruleName(_ id: String) -> String {
        let words = id.split { !($0.isLetter || $0.isNumber) }
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    // MARK: - Results

    private func result(for diagnostic: Diagnostic, ruleIndex: Int?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let ruleIndex {
            members.append(("ruleId", .string(diagnostic.rule)))
            members.append(("ruleIndex", .integer(ruleIndex)))
        }
        members.append(("level", .string(Self.level(diagnostic.severity))))
        members.append(("message", ["text": .string(diagnostic.message)]))
        if let location = physicalLocation(diagnostic.range.start, to: diagnostic.range.end) {
            members.append(("locations", [["physicalLocation": location]]))
        }
        if !diagnostic.notes.isEmpty {
            let related = diagnostic.notes.enumerated().map { offset, note -> JSONValue in
                var location: [(key: String, value: JSONValue)] = [("id", .integer(offset + 1))]
                if let physical = physicalLocation(note.location, to: note.location) {
                    location.append(("physicalLocation", physical))
                }
                location.append(("message", ["text": .string(note.message)]))
                return .object(location)
            }
            members.append(("relatedLocations", .array(related)))
        }
        return .object(members)
    }

    /// The file and region from `start` to `end` (same file), or `nil` when
    /// there is no file.
    private func physicalLocation(_ start: SourceLocation, to end: SourceLocation) -> JSONValue? {
        guard !start.file.isEmpty else { return nil }
        var members: [(key: String, value: JSONValue)] = [("artifactLocation", artifactLocation(start.file))]
        if start.line >= 1 {
            // SARIF requires positive positions and an end no earlier than the start.
            let startColumn = max(1, start.column)
            let endLine = max(start.line, end.line)
            let endColumn = endLine == start.line ? max(startColumn, end.column) : max(1, end.column)
            members.append((
                "region",
                [
                    "startLine": .integer(start.line),
                    "startColumn": .integer(startColumn),
                    "endLine": .integer(endLine),
                    "endColumn": .integer(endColumn),
                ]
            ))
        }
        return .object(members)
    }

    // MARK: - Paths

    private func artifactLocation(_ path: String) -> JSONValue {
        let segments = Self.segments(of: path)
        guard path.hasPrefix("/") else {
            let relative = segments.joined(separator: "/")
            return ["uri": .string(Self.percentEncoded(relative)), "uriBaseId": .string(Self.sourceRootID)]
        }
        // Inside the working directory, unless `..` could lead out of it again.
        if let rootSegments, segments.count > rootSegments.count, segments.starts(with: rootSegments),
            !segments.contains("..")
        {
            let relative = segments.dropFirst(rootSegments.count).joined(separator: "/")
            return ["uri": .string(Self.percentEncoded(relative)), "uriBaseId": .string(Self.sourceRootID)]
        }
        return ["uri": .string("file://" + Self.percentEncoded(Self.absolutePath(segments, directory: false)))]
    }

    /// The segments of a path, without empty ones and `.`: `./a//b/` is `a`, `b`.
    private static func segments(of path: String) -> [String] {
        path.split(separator: "/").filter { $0 != "." }.map(String.init)
    }

    /// `/a/b`, or `/a/b/` for a directory; `/` for no segments.
    private static func absolutePath(_ segments: [String], directory: Bool) -> String {
        let path = "/" + segments.joined(separator: "/")
        return directory && !segments.isEmpty ? path + "/" : path
    }

    /// `text` with every UTF-8 byte other than RFC 3986's unreserved characters
    /// and `/` written as `%XX` (uppercase hex).
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var encoded = String.UnicodeScalarView()
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.append(Unicode.Scalar(byte))
            default:
                encoded.append("%")
                encoded.append(hex[Int(byte >> 4)])
                encoded.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(encoded)
    }
}
