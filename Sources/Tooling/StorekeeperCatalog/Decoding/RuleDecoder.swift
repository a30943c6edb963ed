import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML

/// Decodes the structure of custom `rules`. Which steps exist, and what the
/// rules do to plans, is checked when the policy compiles.
enum RuleDecoder {
    static let keys = ["name", "when", "do", "add"]
    static let conditionKeys = ["state", "type", "product", "delivery", "error"]
    static let addKeys = ["before", "after", "steps"]

    static func decode(_ node: YAMLNode, context: inout YAMLDecodingContext) -> CustomRule? {
        guard context.expectMapping(node, "a rule") else { return nil }
        var name: Located<String>?
        var condition: CustomRule.Condition?
        var action: CustomRule.Action?
        var sawName = false, sawWhen = false
        var actionKeys: [YAMLNode] = []
        var ok = true
        for pair in node.pairs {
            switch pair.key.text {
            case "name":
                sawName = true
                name = ProductDecoder.decodeSymbol(pair.value, kind: "rule", context: &context)
            case "when":
                sawWhen = true
                condition = decodeCondition(pair.value, context: &context)
                if condition == nil { ok = false }
            case "do":
                actionKeys.append(pair.key)
                if let steps = decodeSteps(pair.value, "'do'", context: &context) { action = .replace(steps) } else { ok = false }
            case "add":
                actionKeys.append(pair.key)
                if let insert = decodeAdd(pair.value, context: &context) { action = insert } else { ok = false }
            default:
                context.unknownKey(pair.key, value: pair.value, in: "a rule", known: keys)
            }
        }
        if !sawName { context.missing("name", in: node, of: "this rule", example: "quiet-cancel") }
        if !sawWhen { context.missing("when", in: node, of: "this rule", example: "{state: failed, error: payment-cancelled}") }
        if actionKeys.isEmpty {
            context.error(CatalogRuleID.missingKey, "this rule changes nothing; add `do: [steps]` to replace the matching plans, or `add: {after: STEP, steps: [...]}` to insert steps", at: node)
            ok = false
        } else if actionKeys.count > 1 {
            context.error(CatalogRuleID.notApplicable, "a rule either replaces plans (`do`) or inserts steps (`add`), not both; keep one", at: actionKeys[1],
                          notes: [Diagnostic.Note("'\(actionKeys[0].text ?? "")' is here", at: actionKeys[0].location)])
            ok = false
        }
        guard ok, let name, let condition, let action else { return nil }
        return CustomRule(name: name, condition: condition, action: action, location: node.location)
    }

    static func decodeCondition(_ node: YAMLNode, context: inout YAMLDecodingContext) -> CustomRule.Condition? {
        guard context.expectMapping(node, "'when'") else { return nil }
        var condition = CustomRule.Condition(location: node.location)
        var errorKey: YAMLNode?
        var ok = true
        for pair in node.pairs {
            switch pair.key.text {
            case "state":
                condition.state = context.enumeration(pair.value, "transaction state")
                if condition.state == nil { ok = false }
            case "type":
                condition.type = context.enumeration(pair.value, "product type")
                if condition.type == nil { ok = false }
            case "product":
                condition.product = decodePattern(pair.value, context: &context)
                if condition.product == nil { ok = false }
            case "delivery":
                condition.delivery = context.enumeration(pair.value, "delivery model")
                if condition.delivery == nil { ok = false }
            case "error":
                errorKey = pair.key
                condition.error = context.enumeration(pair.value, "store error")
                if condition.error == nil { ok = false }
            default:
                context.unknownKey(pair.key, value: pair.value, in: "'when'", known: conditionKeys)
            }
        }
        if node.pairs.isEmpty {
            context.error(CatalogRuleID.missingKey, "'when' is empty, so the rule would change every plan; name a state, type, product, delivery or error", at: node)
            ok = false
        }
        if let errorKey, let state = condition.state, state.value != .failed {
            context.error(CatalogRuleID.notApplicable, "'error' matches failed transactions, but this rule's state is \(state.value.rawValue); remove one of them", at: errorKey,
                          notes: [Diagnostic.Note("the state is set here", at: state.location)])
            ok = false
        }
        return ok ? condition : nil
    }

    /// A product id, with `*` standing for any run of characters.
    static func decodePattern(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<String>? {
        guard let pattern = context.string(node, "'product'", example: "com.example.app.*") else { return nil }
        let literal = pattern.value.replacingOccurrences(of: "*", with: "")
        if !literal.isEmpty, let problem = NamePatterns.productID(literal) {
            context.error(CatalogRuleID.invalidName, "the product pattern '\(pattern.value)' \(problem) (and '*')", at: node)
            return nil
        }
        return pattern
    }

    static func decodeSteps(_ node: YAMLNode, _ what: String, context: inout YAMLDecodingContext) -> [Located<String>]? {
        guard let steps = context.stringList(node, what, example: "finish") else { return nil }
        if node.items.isEmpty {
            context.error(CatalogRuleID.missingKey, "\(what) lists no steps; name at least one, like [notify, finish]", at: node)
            return nil
        }
        var ok = steps.count == node.items.count
        for step in steps {
            if let problem = NamePatterns.symbol(step.value, kind: "step") {
                context.error(CatalogRuleID.invalidName, "the step name '\(step.value)' \(problem)", at: step)
                ok = false
            }
        }
        return ok ? steps : nil
    }

    static func decodeAdd(_ node: YAMLNode, context: inout YAMLDecodingContext) -> CustomRule.Action? {
        guard context.expectMapping(node, "'add'") else { return nil }
        var anchors: [(key: YAMLNode, anchor: CustomRule.Anchor?)] = []
        var steps: [Located<String>]?
        var sawSteps = false
        var ok = true
        for pair in node.pairs {
            switch pair.key.text {
            case "before", "after":
                var step = context.string(pair.value, "'\(pair.key.text ?? "")'", example: "persist")
                if let name = step, let problem = NamePatterns.symbol(name.value, kind: "step") {
                    context.error(CatalogRuleID.invalidName, "the step name '\(name.value)' \(problem)", at: name)
                    step = nil
                }
                let anchor = step.map { pair.key.text == "before" ? CustomRule.Anchor.before($0) : .after($0) }
                anchors.append((pair.key, anchor))
                if step == nil { ok = false }
            case "steps":
                sawSteps = true
                steps = decodeSteps(pair.value, "'steps'", context: &context)
                if steps == nil { ok = false }
            default:
                context.unknownKey(pair.key, value: pair.value, in: "'add'", known: addKeys)
            }
        }
        if !sawSteps { context.missing("steps", in: node, of: "'add'", example: "[notify]") }
        if anchors.isEmpty {
            context.error(CatalogRuleID.missingKey, "'add' needs a place for its steps: `before: STEP` or `after: STEP`", at: node)
            ok = false
        } else if anchors.count > 1 {
            context.error(CatalogRuleID.notApplicable, "'add' takes either `before` or `after`, not both; keep one", at: anchors[1].key,
                          notes: [Diagnostic.Note("'\(anchors[0].key.text ?? "")' is here", at: anchors[0].key.location)])
            ok = false
        }
        guard ok, let steps, let anchor = anchors.first?.anchor else { return nil }
        return .insert(anchor, steps)
    }
}
