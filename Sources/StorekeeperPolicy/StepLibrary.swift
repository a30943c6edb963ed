import StorekeeperDiagnostics

/// The step names a catalog may use: the built-in steps and those that
/// plugins register (the CLI learns the latter from `storekeeper.yml`).
public struct StepLibrary: Sendable, Hashable {
    /// Names registered besides the built-in steps.
    public private(set) var extraSteps: [String]
    private var known: Set<String>

    /// A library of the built-in steps and `extraSteps`.
    public init(extraSteps: [String] = []) {
        self.extraSteps = []
        known = Set(BuiltInStep.allCases.map(\.rawValue))
        for step in extraSteps where known.insert(step).inserted { self.extraSteps.append(step) }
    }

    /// Every known name: the built-in steps first, then the extra ones in the order registered.
    public var names: [String] { BuiltInStep.allCases.map(\.rawValue) + extraSteps }

    /// Whether a step of this name exists.
    public func contains(_ name: String) -> Bool { known.contains(name) }

    /// The known name closest to a misspelt one, if one is close enough.
    public func nearest(to name: String) -> String? {
        Suggestion.nearest(to: name, in: names)
    }
}
