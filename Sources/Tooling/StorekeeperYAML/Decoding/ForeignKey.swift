/// A key that another tool's configuration uses (ESLint's `files`,
/// SwiftLint's `disabled_rules`), met where this format does not define it:
/// the unknown-key message says what to write here instead, which no
/// nearest-key suggestion would.
package struct ForeignKey: Sendable {
    /// What to write instead, the end of the message.
    package var hint: String
    /// The key of this format it stands for, if any: a missing key it stands
    /// for is the same mistake, reported once (as the foreign key).
    package var standsFor: String?

    /// A foreign key with its hint, standing for `standsFor` when given.
    package init(_ hint: String, standsFor: String? = nil) {
        self.hint = hint
        self.standsFor = standsFor
    }
}
