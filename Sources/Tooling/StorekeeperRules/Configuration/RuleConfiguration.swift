import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperYAML

/// How a project configures the policy rules: read from `storekeeper.yml`
/// beside its catalogs (see ``ConfigurationLocator``).
///
/// ```yaml
/// rules:
///   restore-at-launch: off          # off, note, warning or error
/// steps: [audit-log]                # step names that plugins register
/// overrides:                        # later entries win over earlier ones and over `rules`
///   - paths: ["legacy/**", "*.draft.yaml"]
///     rules:
///       consumable-persistence: warning
/// ```
///
/// Only policy rules (those of ``RuleRegistry/all``) can be configured; the
/// format checks (`unknown-key`, `yaml-syntax`, …) always report. Apply the
/// configuration to a diagnostic with ``apply(to:)``, or, for many
/// diagnostics, resolve each file once with ``settings(forFile:)`` and apply
/// the ``FileSettings`` to that file's diagnostics.
public struct RuleConfiguration: Sendable {
    /// The name of the configuration file: `storekeeper.yml`.
    public static let fileName = "storekeeper.yml"

    /// The ids of the rules a configuration may name: every policy rule.
    static var policyRuleIDs: Set<String> { Set(RuleRegistry.all.map { $0.description.id }) }

    /// Where the configuration was read from, as given to ``load(path:bytes:)``; nil without a file.
    public var path: String?
    /// Step names that plugins register, so that catalogs may use them.
    public var extraSteps: [String]

    /// Settings of `rules`, by rule id.
    var rules: [String: RuleSetting]
    /// `overrides`, in the order written (later ones win).
    var overrides: [ConfigurationOverride]
    /// The rule ids some override sets, so that other diagnostics skip path matching.
    var overriddenRules: Set<String>
    /// The folder the patterns are relative to, absolute when the working directory is known.
    var directory: String
    /// The working directory when the configuration was loaded: relative
    /// diagnostic paths are relative to it.
    var workingDirectory: String?

    /// No configuration file: every rule at its default severity, no extra steps.
    public init() {
        path = nil
        extraSteps = []
        rules = [:]
        overrides = []
        overriddenRules = []
        directory = "."
        workingDirectory = nil
    }

    /// Reads and checks a configuration file's bytes.
    ///
    /// Problems are diagnostics located in the file: the YAML layer's for
    /// syntax and duplicate keys, `configuration` for everything else. A
    /// setting with a problem is left out; the rest still applies.
    ///
    /// - Parameters:
    ///   - path: The file's path, relative to the current directory or
    ///     absolute: diagnostics name it so, and `overrides` patterns are
    ///     relative to its folder.
    ///   - bytes: The file's contents.
    public static func load(path: String, bytes: [UInt8]) -> (configuration: RuleConfiguration, diagnostics: [Diagnostic]) {
        load(path: path, bytes: bytes, policyRules: policyRuleIDs)
    }

    /// Reads and checks a configuration file's bytes, accepting the rule ids
    /// of `policyRules` (for tests and embedders with their own rules).
    public static func load(
        path: String, bytes: [UInt8], policyRules: Set<String>
    ) -> (configuration: RuleConfiguration, diagnostics: [Diagnostic]) {
        var configuration = RuleConfiguration()
        configuration.path = path
        configuration.workingDirectory = WorkingDirectory.current()
        let absolute = WorkingDirectory.absolute(path, from: configuration.workingDirectory)
        let folder = SourcePath.directory(of: absolute)
        configuration.directory = folder.isEmpty ? "." : folder

        // A file of comments only (every setting commented out) configures nothing;
        // the YAML layer would call it a missing document.
        if isBlank(YAMLParser.utf8Text(of: bytes)) { return (configuration, []) }
        let parsed = YAMLParser.parse(bytes, file: path)
        var decoder = ConfigurationDecoder(policyRules: policyRules)
        if let root = parsed.document?.root { decoder.decode(root) }
        configuration.rules = decoder.rules
        configuration.overrides = decoder.overrides
        configuration.overriddenRules = Set(decoder.overrides.flatMap(\.rules.keys))
        configuration.extraSteps = decoder.steps
        return (configuration, parsed.diagnostics + decoder.diagnostics(file: path))
    }

    /// The diagnostic as configured for its file: nil when its rule is off
    /// there, else with the configured severity. Diagnostics of other ids
    /// pass unchanged.
    ///
    /// `overrides` match the diagnostic's file by its path relative to the
    /// configuration's folder (a relative path is taken from the current
    /// directory at loading); a file outside that folder gets `rules` only.
    ///
    /// A diagnostic of a rule that some override sets costs a resolution of
    /// its file, as ``settings(forFile:)`` does: to apply the configuration
    /// to many diagnostics, resolve each file once and apply its
    /// ``FileSettings`` instead.
    public func apply(to diagnostic: Diagnostic) -> Diagnostic? {
        guard overriddenRules.contains(diagnostic.rule) else {
            return FileSettings.apply(rules[diagnostic.rule], to: diagnostic)
        }
        return settings(forFile: diagnostic.range.file).apply(to: diagnostic)
    }

    /// The settings for the diagnostics of one file: `rules`, with the
    /// overrides whose patterns match the file applied in order.
    ///
    /// The file's path (as diagnostics name it: relative to the current
    /// directory at loading, or absolute) is made relative to the
    /// configuration's folder once, and each override is matched once, so
    /// resolving costs the number of patterns, whatever the number of
    /// diagnostics the result is then applied to. A file outside the
    /// configuration's folder gets `rules` only.
    ///
    /// - Parameter file: The file's path, as in ``Diagnostic``'s range.
    /// - Returns: The settings to apply to that file's diagnostics.
    public func settings(forFile file: String) -> FileSettings {
        var settings = rules
        if !overrides.isEmpty, let path = relativeSegments(of: file) {
            for override in overrides where override.matches(path) {
                settings.merge(override.rules) { _, later in later }
            }
        }
        return FileSettings(file: file, settings: settings)
    }

    /// Whether every line is empty, blank or a comment.
    static func isBlank(_ bytes: [UInt8]) -> Bool {
        var atLineStart = true, inComment = false
        for byte in bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...] {
            switch byte {
            case 0x0A, 0x0D:
                atLineStart = true
                inComment = false
            case 0x20, 0x09:
                continue
            case UInt8(ascii: "#") where atLineStart:
                inComment = true
                atLineStart = false
            default:
                if !inComment { return false }
            }
        }
        return true
    }

    /// A file's path, relative to the configuration's folder, in segments; nil outside the folder.
    func relativeSegments(of file: String) -> [[Unicode.Scalar]]? {
        let absolute = WorkingDirectory.absolute(file, from: workingDirectory)
        guard SourcePath.isInside(absolute, root: directory), absolute != directory else { return nil }
        let relative: Substring
        switch directory {
        case ".": relative = Substring(absolute)
        case "/": relative = absolute.dropFirst()
        default: relative = absolute.dropFirst(directory.count + 1)
        }
        return relative.split(separator: "/").map { Array($0.unicodeScalars) }
    }
}
