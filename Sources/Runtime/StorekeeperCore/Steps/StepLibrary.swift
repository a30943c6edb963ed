
/// The step names a catalog may use, and what each needs: the built-in
/// steps and those that plugins register (the CLI learns the latter's names
/// from `storekeeper.yml`).
public struct StepLibrary: Sendable, Hashable {
    /// Names registered besides the built-in steps.
    public private(set) var extraSteps: [String]
    /// What steps' plugins declare they need, by name (a plugin may replace
    /// a built-in step, and need more than it did).
    public private(set) var declaredRequirements: [String: [StepRequirement]]
    private var known: Set<String>

    /// A library of the built-in steps and `extraSteps`; `requirements`
    /// says what a step's plugin declares it needs (a built-in step needs
    /// what `BuiltInStep.requirements` says, and that too).
    public init(extraSteps: [String] = [], requirements: [String: [StepRequirement]] = [:]) {
        var known = Set(BuiltInStep.allCases.map(\.rawValue))
        var extra: [String] = []
        for step in extraSteps where known.insert(step).inserted { extra.append(step) }
        self.extraSteps = extra
        self.known = known
        declaredRequirements = requirements.filter { known.contains($0.key) }
    }

    /// Every known name: the built-in steps first, then the extra ones in the order registered.
    public var names: [String] { BuiltInStep.allCases.map(\.rawValue) + extraSteps }

    /// Whether a step of this name exists.
    public func contains(_ name: String) -> Bool { known.contains(name) }

    /// What the step of this name needs (nothing for an unknown name): a
    /// built-in step's needs, and what its plugin declares besides (a
    /// plugin replacing a built-in step keeps the built-in's needs).
    public func requirements(of name: String) -> [StepRequirement] {
        (BuiltInStep(name: name)?.requirements ?? []) + (declaredRequirements[name] ?? [])
    }

    /// The known name closest to a misspelt one, if one is close enough.
    public func nearest(to name: String) -> String? {
        Suggestion.nearest(to: name, in: names)
    }
}
