import StorekeeperCore
public import StorekeeperDiagnostics

/// A ``RuleConfiguration`` resolved for one file: the setting of each rule
/// there, `rules` with the matching `overrides` applied.
///
/// Get one with ``RuleConfiguration/settings(forFile:)``, keep it for the
/// file, and apply it to each of the file's diagnostics: applying costs one
/// dictionary lookup, however many overrides the configuration has.
public struct FileSettings: Sendable, Hashable {
    /// The file the settings were resolved for, as given to ``RuleConfiguration/settings(forFile:)``.
    public let file: String
    /// The effective setting by rule id; a rule not listed keeps its default severity.
    let settings: [String: RuleSetting]

    init(file: String, settings: [String: RuleSetting]) {
        self.file = file
        self.settings = settings
    }

    /// The diagnostic as configured for the file: nil when its rule is off
    /// there, else with the configured severity. Diagnostics of other ids
    /// pass unchanged.
    ///
    /// The diagnostic is taken to be in ``file``: its own path is not looked at.
    public func apply(to diagnostic: Diagnostic) -> Diagnostic? {
        Self.apply(settings[diagnostic.rule], to: diagnostic)
    }

    /// A diagnostic with a setting applied: unchanged without one, nil when off.
    static func apply(_ setting: RuleSetting?, to diagnostic: Diagnostic) -> Diagnostic? {
        switch setting {
        case nil:
            return diagnostic
        case .off:
            return nil
        case .on(let severity):
            var configured = diagnostic
            configured.severity = severity
            return configured
        }
    }
}
