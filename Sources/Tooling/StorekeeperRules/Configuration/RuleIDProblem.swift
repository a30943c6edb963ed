import StorekeeperCore
import StorekeeperDiagnostics

/// What to say about a rule id that is not a policy rule, in `storekeeper.yml`
/// and in suppression comments alike, and how messages quote what the author
/// wrote.
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

    /// Ids (and names, keys) longer than this many characters are quoted
    /// truncated and get no suggestion: no rule id is this long, and finding
    /// the nearest one would cost time in proportion to the length.
    static let maxLength = 100
    /// How many characters of an over-long text a message quotes.
    static let quotedPrefix = 40

    /// Whether `text` has more than `limit` Unicode scalars (looking at no more than `limit + 1`).
    static func isLonger(_ text: String, than limit: Int = maxLength) -> Bool {
        !text.unicodeScalars.dropFirst(limit).isEmpty
    }

    /// `text` as a message quotes it: whole up to `limit` characters, else its
    /// first `keep` characters and "…". Counted in Unicode scalars, so that no
    /// character (however many combining marks it has) makes the quote long.
    static func quoted(_ text: String, limit: Int = maxLength, keep: Int = quotedPrefix) -> String {
        guard isLonger(text, than: limit) else { return text }
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: text.unicodeScalars.prefix(keep))
        return String(prefix) + "…"
    }

    /// The message for `id`, which is not one of `policyRules`.
    ///
    /// A format check's id says that the catalog must be fixed, and suggests
    /// no policy rule (following the suggestion would turn off an unrelated
    /// rule); an over-long id is quoted truncated and gets no suggestion;
    /// any other id gets the nearest policy rule, or the list of them.
    static func message(for id: String, policyRules: Set<String>, place: Place) -> String {
        if isLonger(id) {
            return "'\(quoted(id))' is not a policy rule: it is over \(maxLength) characters long, and no rule id is"
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
