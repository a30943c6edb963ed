public import StorekeeperCatalog
public import StorekeeperCore
public import StorekeeperDiagnostics

/// A step name a custom rule writes (in its steps, or as the step `add`
/// inserts next to) that is neither built in nor registered by a plugin:
/// the engine could never run it.
public struct UnknownStep: Sendable, Hashable {
    /// The name as written.
    public var name: String
    /// Where it is written.
    public var range: SourceRange
    /// The custom rule (index in the catalog's `rules`) that writes it.
    public var rule: Int

    /// Every unknown step name the rules write, rule by rule, in the order written.
    public static func all(in rules: [CustomRule], steps: StepLibrary) -> [UnknownStep] {
        var unknown: [UnknownStep] = []
        for (index, rule) in zip(0..., rules) {
            for name in rule.stepNames where !steps.contains(name.value) {
                unknown.append(UnknownStep(name: name.value, range: name.range, rule: index))
            }
        }
        return unknown
    }

    /// The diagnostic of `PlanCheck.unknownStep`: the nearest known name,
    /// or every name when none is near.
    func diagnostic(steps: StepLibrary) -> Diagnostic {
        var message = "no step is named '\(name)'"
        if let nearest = steps.nearest(to: name) {
            message += "; did you mean '\(nearest)'?"
        } else {
            message += "; the steps are \(steps.names.joined(separator: ", "))"
        }
        message += " (a plugin's step must be listed under `steps` in storekeeper.yml)"
        let check = PlanCheck.unknownStep
        return Diagnostic(check.severity, rule: check.id, message, at: range)
    }
}
