import StorekeeperDiagnostics

/// The step names a catalog may use, and what each needs: the built-in
/// steps and those that plugins register (the CLI learns the latter's names
/// from `storekeeper.yml`).
public struct StepLibrary: Sendable, Hashable {
    /// Names registered besides the built-in steps.
    public private(set) var extraSteps: [String]
    /// What steps need, by name, where a plugin says so (a plugin may
    /// replace a built-in step, and need more than it did).
    public private(set) var declaredRequirements: [String: [StepRequirement]]
    private var known: Set<String>

    /// A library of the built-in steps and `extraSteps`; `requirements`
    /// says what a step needs where its plugin declares it (built-in steps
    /// otherwise need what `BuiltInStep.requirements` says).
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

    /// What the step of this name needs (nothing for an unknown name).
    public func requirements(of name: String) -> [StepRequirement] {
        declaredRequirements[name] ?? BuiltInStep(name: name)?.requirements ?? []
    }

    /// The known name closest to a misspelt one, if one is close enough.
    public func nearest(to name: String) -> String? {
        Suggestion.nearest(to: name, in: names)
    }
}
