public import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// A catalog's custom rules indexed by what they name (an exact product id,
/// a pattern, neither), so that each product meets only the rules that can
/// match it: 10,000 products with a rule each cost 10,000 matches, not 10^8.
public struct RuleIndex: Sendable {
    private let rules: [CustomRule]
    private var byProduct: [String: [Int]] = [:]
    private var patterned: [Int] = []
    private var general: [Int] = []

    /// Indexes rules.
    public init(_ rules: [CustomRule]) {
        self.rules = rules
        for index in rules.indices {
            if let pattern = rules[index].condition.product?.value {
                if pattern.utf8.contains(UInt8(ascii: "*")) {
                    patterned.append(index)
                } else {
                    byProduct[pattern, default: []].append(index)
                }
            } else {
                general.append(index)
            }
        }
    }

    /// The rules whose product, type and delivery admit a product (their
    /// state and error are left to each situation), in catalog order.
    public func candidates(for product: Product) -> [Int] {
        let id = product.id.value
        var candidates = byProduct[id] ?? []
        for index in patterned where Glob.matches(rules[index].condition.product?.value ?? "", id) { candidates.append(index) }
        candidates += general
        candidates = candidates.filter { rules[$0].condition.admits(product) }
        candidates.sort()
        return candidates
    }
}
