/// An entry of `overrides`: rule settings for the files some patterns match.
struct ConfigurationOverride: Sendable, Hashable {
    /// A file matching any of them gets `rules`.
    let patterns: [PathPattern]
    /// Settings by rule id.
    let rules: [String: RuleSetting]

    /// Whether the override applies to a file (its path's segments, relative to the configuration's folder).
    func matches(_ path: [[Unicode.Scalar]]) -> Bool {
        patterns.contains { $0.matches(path) }
    }
}
