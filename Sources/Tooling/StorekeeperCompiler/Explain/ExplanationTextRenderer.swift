import StorekeeperCore
import StorekeeperRuntime

/// Renders a ``PolicyExplanation`` as a table for people: per product a
/// header line, then one line per plan with the situations it serves and its
/// steps, and under a plan a custom rule changed, which steps the rule wrote.
///
/// ```text
/// rocket.coins.100 · consumable · built-in · persist app-state · restore none
///   purchasing                  notify → waits
///   deferred                    notify → waits
///   purchased                   persist → grant → audit-log → notify → finish
///     rule 'audit-purchases' (Catalogs/rocket/catalog.yaml:41:5): audit-log
///   restored                    finish
///   failed (any other error)    present-error → finish
///   failed (payment-cancelled)  finish
/// ```
///
/// Labels are padded to the longest label of their product, so each
/// product's steps line up. A plan without `finish` ends with `→ waits`: the
/// transaction waits for its next state. Products are separated by a blank
/// line, and the text ends with exactly one newline.
public struct ExplanationTextRenderer: Sendable {
    /// Creates a renderer.
    public init() {}

    /// The table for an explanation, ending with one newline.
    ///
    /// - Parameter explanation: The policy, or the part of it, to show.
    /// - Returns: The text, or a single newline when no product is shown.
    public func render(_ explanation: PolicyExplanation) -> String {
        let policy = explanation.policy
        var blocks: [String] = []
        for entry in explanation.products {
            var lines = [Self.header(entry.product)]
            let width = entry.rows.map(\.label.count).max() ?? 0
            for row in entry.rows {
                let padding = String(repeating: " ", count: width - row.label.count)
                lines.append("  " + row.label + padding + "  " + Self.steps(row.plan))
                lines += Self.provenance(row.plan, policy: policy)
            }
            blocks.append(lines.joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// `id · type · delivery · persist STRATEGY · restore POLICY`.
    private static func header(_ product: ProductPolicy) -> String {
        [product.id, product.type.rawValue, product.delivery.rawValue,
         "persist " + product.persistence.rawValue, "restore " + product.restore.rawValue]
            .joined(separator: " · ")
    }

    /// The steps joined by arrows, then `waits` for a plan that does not finish.
    private static func steps(_ plan: Plan) -> String {
        var names = plan.stepNames
        if !plan.finishes { names.append("waits") }
        return names.joined(separator: " → ")
    }

    /// One indented line per custom rule that wrote steps of the plan (or
    /// changed it without writing any): its name, position and steps.
    private static func provenance(_ plan: Plan, policy: CompiledPolicy) -> [String] {
        var order: [Int] = []
        var written: [Int: [String]] = [:]
        for step in plan.steps {
            guard case .rule(let index, _) = step.origin else { continue }
            if written[index] == nil { order.append(index) }
            written[index, default: []].append(step.name)
        }
        if let rule = plan.rule, written[rule] == nil {
            order.append(rule)
            written[rule] = []
        }
        return order.map { index in
            let steps = written[index] ?? []
            let what = steps.isEmpty ? "no steps" : steps.joined(separator: ", ")
            guard policy.rules.indices.contains(index) else { return "    rule #\(index): \(what)" }
            let rule = policy.rules[index]
            return "    rule '\(rule.name)' (\(rule.position)): \(what)"
        }
    }
}
