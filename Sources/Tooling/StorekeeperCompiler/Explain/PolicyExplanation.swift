import StorekeeperCatalog
public import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPolicy
public import StorekeeperRuntime

/// A compiled policy arranged for reading: per product, one row per plan,
/// situations that share a plan on one row (`failed` for nine errors and
/// `failed (payment-cancelled)` apart, say). The text, JSON and Mermaid
/// renderers all read this.
public struct PolicyExplanation: Sendable {
    /// The policy explained.
    public let policy: CompiledPolicy
    /// The products shown, in catalog order.
    public let products: [Entry]

    /// One product and its plans.
    public struct Entry: Sendable {
        /// The product.
        public let product: ProductPolicy
        /// Its plans, in situation order (a row's first situation).
        public let rows: [Row]
    }

    /// One plan of a product and the situations it serves.
    public struct Row: Sendable {
        /// The situations, in `PlanSituation.all`'s order.
        public let situations: [PlanSituation]
        /// Its position in `CompiledPolicy.plans`.
        public let planNumber: Int
        /// The plan.
        public let plan: Plan
        /// The situations for people: `purchased`, `failed (payment-cancelled)`,
        /// `failed (any other error)`, `failed`.
        public let label: String
    }

    /// Explains a policy, or one product or state of it. Throws when the
    /// product is not in the policy (with the nearest id suggested).
    public init(_ policy: CompiledPolicy, product: String? = nil, state: TransactionState? = nil) throws(ExplanationError) {
        self.policy = policy
        var handles: [Int]
        if let product {
            guard let handle = policy.product(id: product) else {
                throw ExplanationError(productID: product, suggestion: Suggestion.nearest(to: product, in: policy.products.map(\.id)))
            }
            handles = [handle.index]
        } else {
            handles = Array(policy.products.indices)
        }
        products = handles.map { index in
            Entry(product: policy.products[index], rows: Self.rows(policy, index, state: state))
        }
    }

    private static func rows(_ policy: CompiledPolicy, _ index: Int, state: TransactionState?) -> [Row] {
        var order: [Int] = []
        var groups: [Int: [PlanSituation]] = [:]
        // Situations of different states never share a row, even when their plans are alike.
        var keys: [Int: Int] = [:]
        for (slot, situation) in PlanSituation.all.enumerated() {
            if let state, situation.state != state { continue }
            let number = Int(policy.table[index * SituationSlot.count + slot])
            let key = number * 8 + stateOrdinal(situation.state)
            if groups[key] == nil {
                order.append(key)
                keys[key] = number
            }
            groups[key, default: []].append(situation)
        }
        let failed = order.filter { groups[$0]?.first?.state == .failed }
        let largest = failed.max { (groups[$0]?.count ?? 0) < (groups[$1]?.count ?? 0) }
        return order.compactMap { key in
            guard let situations = groups[key], let number = keys[key], let first = situations.first else { return nil }
            return Row(situations: situations, planNumber: number, plan: policy.plans[number],
                       label: label(first.state, situations, split: failed.count > 1, isLargest: key == largest))
        }
    }

    private static func stateOrdinal(_ state: TransactionState) -> Int {
        switch state {
        case .purchasing: 0
        case .deferred: 1
        case .purchased: 2
        case .restored: 3
        case .failed: 4
        }
    }

    /// `failed` when one plan serves every error; otherwise the errors, or
    /// "any other error" for the largest group when it has more than three.
    private static func label(_ state: TransactionState, _ situations: [PlanSituation], split: Bool, isLargest: Bool) -> String {
        guard state == .failed, split else { return state.rawValue }
        let errors = situations.compactMap(\.error?.rawValue)
        if isLargest, errors.count > 3 { return "failed (any other error)" }
        return "failed (\(errors.joined(separator: ", ")))"
    }
}

/// A product named for explanation that the policy does not have.
public struct ExplanationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The id asked for.
    public var productID: String
    /// The nearest id the policy has.
    public var suggestion: String?

    /// "no product 'x' in the catalog; did you mean 'y'?".
    public var description: String {
        "no product '\(productID)' in the catalog" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    }
}
