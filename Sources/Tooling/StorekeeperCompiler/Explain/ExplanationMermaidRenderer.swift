import StorekeeperCatalog
import StorekeeperCore
import StorekeeperRuntime

/// Renders a ``PolicyExplanation`` as a Mermaid `stateDiagram-v2` of each
/// product's transaction life, which GitHub draws in Markdown.
///
/// The store's transitions are drawn as they are (`purchasing` to
/// `deferred`, `purchased` or `failed`; `deferred` to `purchased` or
/// `failed`; a restore to `restored`), and each state's plan on what leaves
/// it: a plan that finishes is an edge to `finished` labelled with its steps,
/// a plan that waits a note (`notify, then waits`). When failed transactions
/// have several plans, each is an edge of its own, its label prefixed by the
/// errors it serves:
///
/// ```text
/// stateDiagram-v2
///     [*] --> purchasing : add payment
///     ...
///     note right of purchasing : notify, then waits
///     purchased --> finished : persist → grant → audit-log* → notify → finish
///     failed --> finished : any other error — present-error → finish
///     failed --> finished : payment-cancelled — finish
///     finished --> [*]
///     note left of purchased : * written by rule audit-purchases (catalog.yaml line 41, column 5)
/// ```
///
/// Steps a custom rule wrote end with `*`, and a note on the state names the
/// rule. With several products, each is a composite state labelled with its
/// id (`state "rocket.coins.100" as p0 { ... }`), its states' ids prefixed
/// (`p0_purchased`) and labelled with their names. An explanation filtered to
/// one state draws that state's part only.
///
/// Generated labels never hold `:`, `;`, `#`, `{`, `}`, `"` or `>`: other
/// characters than letters, digits, spaces and `. _ - / , ( ) * + = @ '`
/// become `_`, and the errors prefixing an edge are set off with ` — `.
public struct ExplanationMermaidRenderer: Sendable {
    /// Creates a renderer.
    public init() {}

    /// The diagram for an explanation: `stateDiagram-v2` first, ending with
    /// one newline.
    ///
    /// - Parameter explanation: The policy, or the part of it, to show.
    /// - Returns: The Mermaid text.
    public func render(_ explanation: PolicyExplanation) -> String {
        var lines = ["stateDiagram-v2"]
        let policy = explanation.policy
        if explanation.products.count == 1, let entry = explanation.products.first {
            lines += Self.body(entry, policy: policy, prefix: "", indent: "    ")
        } else {
            for (number, entry) in explanation.products.enumerated() {
                lines.append("    state \"\(Self.label(entry.product.id))\" as p\(number) {")
                lines += Self.body(entry, policy: policy, prefix: "p\(number)_", indent: "        ")
                lines.append("    }")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The states in the order they are declared.
    private static let stateOrder: [TransactionState] = [.purchasing, .deferred, .purchased, .restored, .failed]

    /// The store's transitions: from a state (`nil` for the start) to another.
    private static let transitions: [(from: TransactionState?, to: TransactionState, label: String?)] = [
        (nil, .purchasing, "add payment"),
        (.purchasing, .deferred, nil),
        (.purchasing, .purchased, nil),
        (.purchasing, .failed, nil),
        (.deferred, .purchased, nil),
        (.deferred, .failed, nil),
        (nil, .restored, "restore"),
    ]

    /// One product's diagram: with a prefix, inside its composite state, its
    /// states declared with readable labels.
    private static func body(_ entry: PolicyExplanation.Entry, policy: CompiledPolicy,
                             prefix: String, indent: String) -> [String] {
        let drawn = Set(entry.rows.map(stateOf))
        let finishes = entry.rows.contains { $0.plan.finishes }
        let id = { (state: TransactionState) in prefix + state.rawValue }
        let finished = prefix + "finished"

        var edges: [String] = []
        var connected: Set<TransactionState> = []
        for transition in transitions where drawn.contains(transition.to) {
            if let from = transition.from, !drawn.contains(from) { continue }
            let source = transition.from.map(id) ?? "[*]"
            edges.append("\(source) --> \(id(transition.to))" + (transition.label.map { " : \($0)" } ?? ""))
            connected.insert(transition.to)
            if let from = transition.from { connected.insert(from) }
        }

        let splitsFailed = entry.rows.filter { stateOf($0) == .failed }.count > 1
        var plans: [String] = []
        for row in entry.rows {
            let current = stateOf(row)
            var text = steps(row.plan)
            if splitsFailed, current == .failed { text = errors(row) + " — " + text }
            if row.plan.finishes {
                plans.append("\(id(current)) --> \(finished) : \(text)")
                connected.insert(current)
            } else {
                plans.append("note right of \(id(current)) : \(text)")
            }
        }
        if finishes { plans.append("\(finished) --> [*]") }

        var notes: [String] = []
        for state in stateOrder {
            let rules = rules(of: entry.rows.filter { stateOf($0) == state }, policy: policy)
            guard !rules.isEmpty else { continue }
            notes.append("note left of \(id(state)) : * written by \(rules.joined(separator: " and "))")
        }

        var declarations: [String] = []
        for state in stateOrder where drawn.contains(state) {
            if !prefix.isEmpty {
                declarations.append("state \"\(state.rawValue)\" as \(id(state))")
            } else if !connected.contains(state) {
                // A state with only a note: declared so that the note has it.
                declarations.append(id(state))
            }
        }
        if finishes, !prefix.isEmpty { declarations.append("state \"finished\" as \(finished)") }

        return (declarations + edges + plans + notes).map { indent + $0 }
    }

    /// A row's state.
    private static func stateOf(_ row: PolicyExplanation.Row) -> TransactionState {
        row.situations.first?.state ?? .failed
    }

    /// The steps joined by arrows, those a rule wrote marked `*`; a plan that
    /// does not finish ends `, then waits`.
    private static func steps(_ plan: Plan) -> String {
        let names = plan.steps.map { step in
            switch step.origin {
            case .defaultPlan: label(step.name)
            case .rule: label(step.name) + "*"
            }
        }
        if plan.finishes { return names.joined(separator: " → ") }
        return names.isEmpty ? "waits" : names.joined(separator: ", ") + ", then waits"
    }

    /// The errors a failed row serves, as its label says them: `payment-cancelled`,
    /// `any other error`.
    private static func errors(_ row: PolicyExplanation.Row) -> String {
        let opening = "failed ("
        if row.label.hasPrefix(opening), row.label.hasSuffix(")") {
            return label(String(row.label.dropFirst(opening.count).dropLast()))
        }
        return label(row.situations.compactMap(\.error?.rawValue).joined(separator: ", "))
    }

    /// The rules that changed these rows' plans or wrote their steps, each
    /// with where it is: `rule audit-purchases (catalog.yaml line 41, column 5)`.
    private static func rules(of rows: [PolicyExplanation.Row], policy: CompiledPolicy) -> [String] {
        var indices: [Int] = []
        for row in rows {
            var found = row.plan.steps.compactMap { step -> Int? in
                if case .rule(let index, _) = step.origin { return index }
                return nil
            }
            if let rule = row.plan.rule { found.append(rule) }
            for index in found where !indices.contains(index) { indices.append(index) }
        }
        return indices.map { index in
            guard policy.rules.indices.contains(index) else { return "rule \(index)" }
            let rule = policy.rules[index]
            let position = rule.position
            return "rule \(label(rule.name)) (\(label(position.file)) line \(position.line), column \(position.column))"
        }
    }

    /// Text Mermaid takes as it is in a label: letters, digits, spaces and
    /// `. _ - / , ( ) * + = @ '` (and non-ASCII letters); anything else is `_`.
    static func label(_ text: String) -> String {
        var output = ""
        output.unicodeScalars.append(contentsOf: text.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", " ", ".", "_", "-", "/", ",", "(", ")", "*", "+", "=", "@", "'":
                scalar
            case "\u{00}"..."\u{9F}", "\u{2028}", "\u{2029}":
                "_"
            default:
                scalar
            }
        })
        return output
    }
}
