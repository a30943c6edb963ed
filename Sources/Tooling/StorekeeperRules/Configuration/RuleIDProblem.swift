import StorekeeperCore
import StorekeeperDiagnostics

/// What to say about a rule id that is not a policy rule, in `storekeeper.yml`
/// and in suppression comments alike. (Messages quote what the author wrote
/// through `QuotedText`.)
enum RuleIDProblem {
    /// Where the id was written, for the end of the sentence.
    enum Place {
        /// Under `rules` in `storekeeper.yml`.
        case configuration
        /// In a `# storekeeper:disable-next-line` comment.
        case suppression

        /// What cannot be done to a rule that is not a policy rule.
        var verb: String {
            switch self {
            case .configuration: "configured"
            case .suppression: "suppressed"
            }
        }
    }

    /// The message for `id`, which is not one of `policyRules`.
    ///
    /// A format check's id says that the catalog must be fixed, and suggests
    /// no policy rule (following the suggestion would turn off an unrelated
    /// rule); an over-long id is quoted truncated and gets no suggestion;
    /// any other id gets the nearest policy rule, or the list of them.
    static func message(for id: String, policyRules: Set<String>, place: Place) -> String {
        if QuotedText.isLonger(id) {
            return "'\(QuotedText.quoted(id))' is not a policy rule: it is over \(QuotedText.longest) characters long, and no rule id is"
        }
        if DiagnosticIndex.formatCheckIDs.contains(id) {
            return "'\(id)' is a format check, which cannot be \(place.verb): fix the catalog instead (docs/diagnostics.md describes it)"
        }
        let known = policyRules.sorted()
        if let nearest = Suggestion.nearest(to: id, in: known) {
            return "'\(id)' is not a policy rule; did you mean '\(nearest)'?"
        }
        switch place {
        case .configuration:
            return "'\(id)' is not a policy rule, so it cannot be configured (format checks such as unknown-key and yaml-syntax always report); the policy rules are: \(known.joined(separator: ", "))"
        case .suppression:
            return "'\(id)' is not a policy rule, so it cannot be suppressed (format checks such as unknown-key and yaml-syntax must be fixed); the policy rules are: \(known.joined(separator: ", "))"
        }
    }
}
