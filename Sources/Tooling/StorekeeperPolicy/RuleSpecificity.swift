public import StorekeeperCatalog
public import StorekeeperCore
public import StorekeeperDiagnostics

/// How specific a custom rule's `when` is: when several rules match one
/// plan, the most specific changes it. A product beats a type, a type beats
/// the other conditions; an exact product id beats a pattern; among rules
/// equal so far, the one naming more of `state`, `delivery` and `error` wins.
/// Two rules equal in all of these that match one plan are an error.
public struct RuleSpecificity: Sendable, Hashable, Comparable {
    /// 2 for an exact product id, 1 for a pattern with `*`, 0 for none.
    public var product: Int
    /// 1 when the rule names a product type.
    public var type: Int
    /// How many of `state`, `delivery` and `error` the rule names.
    public var others: Int

    /// The specificity of a rule's condition.
    public init(_ condition: CustomRule.Condition) {
        if let pattern = condition.product?.value {
            product = pattern.utf8.contains(UInt8(ascii: "*")) ? 1 : 2
        } else {
            product = 0
        }
        type = condition.type == nil ? 0 : 1
        others = (condition.state == nil ? 0 : 1) + (condition.delivery == nil ? 0 : 1) + (condition.error == nil ? 0 : 1)
    }

    public static func < (lhs: RuleSpecificity, rhs: RuleSpecificity) -> Bool {
        (lhs.product, lhs.type, lhs.others) < (rhs.product, rhs.type, rhs.others)
    }
}

extension CustomRule.Condition {
    /// Whether the condition's state and error admit a situation (whatever the product).
    public func admits(_ situation: PlanSituation) -> Bool {
        if let state, state.value != situation.state { return false }
        if let error, error.value != situation.error { return false }
        return true
    }

    /// Whether the condition's type and delivery admit a product (whatever
    /// the situation; the product id is matched separately).
    public func admits(_ candidate: Product) -> Bool {
        if let type, type.value != candidate.type.value { return false }
        if let delivery, delivery.value != candidate.delivery.model.value { return false }
        return true
    }

    /// Whether a plan for this product and situation is one the condition names.
    public func matches(_ candidate: Product, in situation: PlanSituation) -> Bool {
        if let state, state.value != situation.state { return false }
        if let error, error.value != situation.error { return false }
        if let type, type.value != candidate.type.value { return false }
        if let delivery, delivery.value != candidate.delivery.model.value { return false }
        if let pattern = product?.value {
            let id = candidate.id.value
            if pattern.utf8.contains(UInt8(ascii: "*")) ? !Glob.matches(pattern, id) : pattern != id { return false }
        }
        return true
    }
}

extension CustomRule {
    /// Every step name the rule writes: its steps, and the step `add` inserts next to.
    public var stepNames: [Located<String>] {
        switch action {
        case .replace(let steps):
            return steps
        case .insert(.before(let anchor), let steps), .insert(.after(let anchor), let steps):
            return [anchor] + steps
        }
    }
}
