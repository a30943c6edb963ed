/// Why a step is in a plan: the guide's default plan, or a custom rule (with
/// where the rule wrote the step).
public enum StepOrigin: Sendable, Hashable {
    /// The default plan for the product and state.
    case defaultPlan
    /// A custom rule (its index in `CompiledPolicy.rules`) wrote the step at `at`.
    case rule(index: Int, at: SourcePosition)
}

/// A place in a catalog file, kept as text so that a compiled policy needs
/// no catalog to say where its rules came from.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    /// The file, as it was named when compiled.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// Creates a position.
    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}

/// A custom rule, as a compiled policy remembers it.
public struct RuleReference: Sendable, Hashable {
    /// The rule's name.
    public var name: String
    /// Where the rule starts (its item in `rules`).
    public var position: SourcePosition

    /// Creates a reference.
    package init(name: String, position: SourcePosition) {
        self.name = name
        self.position = position
    }
}
