import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
import StorekeeperPolicy
import StorekeeperRuntime

/// Renders a ``PolicyExplanation`` as JSON for tools, indented by two spaces
/// and ending with a newline. Members keep this order:
///
/// ```json
/// {
///   "catalog": "rocket-racer",
///   "products": [
///     {
///       "id": "rocket.coins.100", "type": "consumable", "delivery": "built-in",
///       "persistence": "app-state", "restore": "none",
///       "plans": [
///         {
///           "label": "purchased",
///           "situations": [{"state": "purchased"}],
///           "plan": 2,
///           "rule": {"name": "audit-purchases", "file": "catalog.yaml", "line": 41, "column": 5},
///           "finishes": true,
///           "steps": [
///             {"step": "persist", "origin": "default"},
///             {"step": "audit-log", "origin": "rule", "rule": "audit-purchases",
///              "file": "catalog.yaml", "line": 43, "column": 30}
///           ]
///         }
///       ]
///     }
///   ]
/// }
/// ```
///
/// A failed situation is `{"state": "failed", "error": "payment-cancelled"}`.
/// `plan` is the plan's position in ``CompiledPolicy/plans``; `rule` is the
/// custom rule that changed the default plan, at the position where the rule starts,
/// or `null`. A step a rule wrote names the rule and where the step is
/// written in the catalog.
public struct ExplanationJSONRenderer: Sendable {
    /// Creates a renderer.
    public init() {}

    /// The JSON text of an explanation, ending with one newline.
    ///
    /// - Parameter explanation: The policy, or the part of it, to show.
    /// - Returns: The JSON document.
    public func render(_ explanation: PolicyExplanation) -> String {
        JSONWriter(indentation: 2).serialize(value(explanation)) + "\n"
    }

    /// The explanation as a JSON value.
    func value(_ explanation: PolicyExplanation) -> JSONValue {
        let policy = explanation.policy
        return [
            "catalog": .string(policy.catalog),
            "products": .array(explanation.products.map { product($0, policy: policy) }),
        ]
    }

    private func product(_ entry: PolicyExplanation.Entry, policy: CompiledPolicy) -> JSONValue {
        let product = entry.product
        return [
            "id": .string(product.id),
            "type": .string(product.type.rawValue),
            "delivery": .string(product.delivery.rawValue),
            "persistence": .string(product.persistence.rawValue),
            "restore": .string(product.restore.rawValue),
            "plans": .array(entry.rows.map { row($0, policy: policy) }),
        ]
    }

    private func row(_ row: PolicyExplanation.Row, policy: CompiledPolicy) -> JSONValue {
        var rule: JSONValue = .null
        if let index = row.plan.rule {
            let reference = Self.reference(index, in: policy)
            rule = [
                "name": .string(reference.name),
                "file": .string(reference.position.file),
                "line": .integer(reference.position.line),
                "column": .integer(reference.position.column),
            ]
        }
        return [
            "label": .string(row.label),
            "situations": .array(row.situations.map(situation)),
            "plan": .integer(row.planNumber),
            "rule": rule,
            "finishes": .bool(row.plan.finishes),
            "steps": .array(row.plan.steps.map { step($0, policy: policy) }),
        ]
    }

    private func situation(_ situation: PlanSituation) -> JSONValue {
        guard let error = situation.error else { return ["state": .string(situation.state.rawValue)] }
        return ["state": .string(situation.state.rawValue), "error": .string(error.rawValue)]
    }

    private func step(_ step: ResolvedStep, policy: CompiledPolicy) -> JSONValue {
        switch step.origin {
        case .defaultPlan:
            return ["step": .string(step.name), "origin": "default"]
        case .rule(let index, let position):
            return [
                "step": .string(step.name),
                "origin": "rule",
                "rule": .string(Self.reference(index, in: policy).name),
                "file": .string(position.file),
                "line": .integer(position.line),
                "column": .integer(position.column),
            ]
        }
    }

    /// The rule at an index; a policy always has it, but a placeholder keeps
    /// a damaged one from trapping.
    private static func reference(_ index: Int, in policy: CompiledPolicy) -> RuleReference {
        guard policy.rules.indices.contains(index) else {
            return RuleReference(name: "#\(index)", position: SourcePosition(file: "", line: 0, column: 0))
        }
        return policy.rules[index]
    }
}
