import StorekeeperCore
public import StorekeeperDiagnostics

/// One valid `# storekeeper:disable-next-line RULE-ID[, RULE-ID...] -- reason`
/// comment: the rules whose diagnostics starting on its target line are hidden.
public struct Suppression: Sendable, Hashable {
    /// A rule id as named in the comment, with where it is written (for the
    /// `unused-suppression` warning).
    public struct Rule: Sendable, Hashable {
        /// The rule's id.
        public var id: String
        /// Where the id is written in the comment.
        public var range: SourceRange

        /// Creates a rule reference.
        public init(id: String, range: SourceRange) {
            self.id = id
            self.range = range
        }
    }

    /// The file the comment is in, as given to the scanner.
    public var file: String
    /// The 1-based line of the comment.
    public var commentLine: Int
    /// The line whose diagnostics it hides: the first line after it that is
    /// not itself a suppression comment.
    public var targetLine: Int
    /// The rules it hides, in the order written, each once.
    public var rules: [Rule]
    /// Why, as written after ` -- `.
    public var reason: String

    /// Creates a suppression.
    public init(file: String, commentLine: Int, targetLine: Int, rules: [Rule], reason: String) {
        self.file = file
        self.commentLine = commentLine
        self.targetLine = targetLine
        self.rules = rules
        self.reason = reason
    }
}
