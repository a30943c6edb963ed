import StorekeeperCore
public import StorekeeperDiagnostics

/// The checks' part of `docs/diff.md`, generated from the checks themselves so
/// that the documentation cannot drift from what they find (a test compares
/// the file with this output).
public enum DiffDocumentation {
    /// The line before the generated part of docs/diff.md.
    public static let beginMarker = "<!-- diff checks: generated from DiffCheck.all; do not edit by hand -->"
    /// The line after it.
    public static let endMarker = "<!-- end of diff checks -->"
    /// How to regenerate it.
    public static let regenerateCommand = "STOREKEEPER_WRITE_DOCS=1 swift test --filter DiffDocumentationTests"

    /// The generated part: a table of every check, then each check with its
    /// rationale and examples, between the markers.
    public static func markdown(_ checks: [DiffCheck] = DiffCheck.all) -> String {
        var text = beginMarker + "\n\n| Check | Severity | What it checks |\n| --- | --- | --- |\n"
        for check in checks {
            text += "| [`\(check.id)`](#\(check.id)) | \(check.severity.rawValue) | \(escapeCell(check.summary)) |\n"
        }
        for check in checks {
            text += "\n### \(check.id)\n\n**\(check.severity.rawValue)**: \(check.summary)\n\n\(check.rationale)\n"
            text += examples(check.triggering, title: "Reported")
            text += examples(check.nonTriggering, title: "Accepted")
        }
        return text + "\n" + endMarker + "\n"
    }

    /// One line per check: id, severity, summary, aligned (`storekeeper diff --list-checks`).
    ///
    /// Every finding `diff` can report: the checks of a pair of catalogs and
    /// those of pairing catalogs in directories (a catalog removed, renamed,
    /// a product moved between catalogs), in order of id.
    public static func list(_ checks: [RuleMetadata] = CatalogDiff.metadata) -> String {
        let width = checks.map(\.id.count).max() ?? 0
        var text = ""
        for check in checks {
            let id = check.id + String(repeating: " ", count: width - check.id.count)
            let severity = check.defaultSeverity.rawValue + String(repeating: " ", count: 7 - check.defaultSeverity.rawValue.count)
            text += "\(id)  \(severity)  \(check.summary)\n"
        }
        return text
    }

    private static func examples(_ examples: [DiffExample], title: String) -> String {
        var text = ""
        for example in examples {
            text += "\n\(title):\n\n```yaml\n# old\n\(example.shown(old: true))\n```\n\n```yaml\n# new\n\(example.shown(old: false))\n```\n"
        }
        return text
    }

    private static func escapeCell(_ text: String) -> String {
        text.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}
