public import StorekeeperCore
package import StorekeeperJSON

/// Writes a compiled policy as versioned JSON: like a query plan, the
/// distinct plans once, and each product's plan numbers per situation.
/// `PolicyDecoder` reads it back, without the catalog.
public struct PolicyEncoder: Sendable {
    /// Spaces per level, or nil for one line.
    package var indentation: Int?
    /// The largest document `checkedSerialize(_:)` writes, in bytes: by
    /// default `PolicyFormat.maxSize`, what `PolicyDecoder` reads.
    package var maxSize: Int

    /// An encoder; indented by default (compiled policies are reviewed in diffs).
    public init(indentation: Int? = 2, maxSize: Int = PolicyFormat.maxSize) {
        self.indentation = indentation
        self.maxSize = maxSize
    }

    /// The JSON document, with a final newline.
    public func encode(_ policy: CompiledPolicy) -> String {
        serialize(document(policy))
    }

    /// A document (`document(_:)`) as text, laid out as `encode` does.
    package func serialize(_ document: JSONValue) -> String {
        JSONWriter(indentation: indentation, inlineScalarArrays: true).serialize(document) + "\n"
    }

    /// A document as text, as `serialize(_:)` lays it out, refused when it
    /// is over `maxSize`: a policy the reader would refuse is never written.
    package func checkedSerialize(_ document: JSONValue) throws(PolicySizeError) -> String {
        let text = serialize(document)
        guard text.utf8.count <= maxSize else { throw PolicySizeError(size: text.utf8.count, limit: maxSize, isCompact: indentation == nil) }
        return text
    }

    /// The document as a JSON value.
    package func document(_ policy: CompiledPolicy) -> JSONValue {
        let fileNumbers = Dictionary(policy.files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var files = policy.files
        func file(_ name: String) -> Int {
            if let known = fileNumbers[name] { return known }
            if let index = files.firstIndex(of: name) { return index }
            files.append(name)
            return files.count - 1
        }
        let rules: [JSONValue] = policy.rules.map { rule in
            .object([("name", .string(rule.name)), ("file", .integer(file(rule.position.file))),
                     ("line", .integer(rule.position.line)), ("column", .integer(rule.position.column))])
        }
        let plans: [JSONValue] = policy.plans.map { plan in
            let steps: [JSONValue] = plan.steps.map { step in
                switch step.origin {
                case .defaultPlan:
                    return .object([("step", .string(step.name))])
                case .rule(let index, let at):
                    return .object([("step", .string(step.name)), ("rule", .integer(index)), ("file", .integer(file(at.file))),
                                    ("line", .integer(at.line)), ("column", .integer(at.column))])
                }
            }
            return .object([("rule", plan.rule.map { .integer($0) } ?? .null), ("steps", .array(steps))])
        }
        let products: [JSONValue] = policy.products.indices.map { index in
            var members = Self.members(of: policy.products[index])
            let start = index * SituationSlot.count
            members.append(("plans", .array(policy.table[start..<start + SituationSlot.count].map { .integer(Int($0)) })))
            return .object(members)
        }
        let situations: [JSONValue] = PlanSituation.all.map(Self.situation)
        return .object([
            ("format", .string(PolicyFormat.name)),
            ("version", .integer(CompiledPolicy.formatVersion)),
            ("catalog", .string(policy.catalog)),
            ("files", .array(files.map { .string($0) })),
            ("server", policy.server.map { .string($0) } ?? .null),
            ("refunds", .object([("spent-balance", .string(policy.refundedSpendPolicy.rawValue))])),
            ("features", .array(policy.features.map { .string($0) })),
            ("balances", .array(policy.balances.map { .string($0) })),
            ("situations", .array(situations)),
            ("rules", .array(rules)),
            ("plans", .array(plans)),
            ("products", .array(products)),
        ])
    }

    /// `{"state": "failed", "error": "payment-cancelled"}`.
    static func situation(_ situation: PlanSituation) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("state", .string(situation.state.rawValue))]
        if let error = situation.error { members.append(("error", .string(error.rawValue))) }
        return .object(members)
    }

    /// A product's members, spelled as in the catalog format.
    static func members(of product: ProductPolicy) -> [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(product.id)),
            ("type", .string(product.type.rawValue)),
            ("delivery", .string(product.delivery.rawValue)),
            ("unlocks", .array(product.unlocks.map { .string($0) })),
            ("grants", .array(product.grants.map { .object([("balance", .string($0.balance)), ("amount", .integer($0.amount))]) })),
        ]
        if let content = product.content {
            var fields: [(key: String, value: JSONValue)] = [("source", .string(content.source.rawValue))]
            if let path = content.path { fields.append(("path", .string(path))) }
            if let size = content.size { fields.append(("size", .integer(Int(size)))) }
            if let storage = content.storage { fields.append(("storage", .string(storage.rawValue))) }
            members.append(("content", .object(fields)))
        }
        members += [
            ("persistence", .string(product.persistence.rawValue)),
            ("record", .string(product.record.rawValue)),
            ("restore", .string(product.restore.rawValue)),
            ("restore-trigger", .string(product.restoreTrigger.rawValue)),
            ("restore-selection", .string(product.restoreSelection.rawValue)),
            ("max-quantity", .integer(product.maxQuantity)),
            ("family-shareable", .bool(product.familyShareable)),
        ]
        if let subscription = product.subscription {
            members.append(("subscription", .object([("group", .string(subscription.group)), ("level", .integer(subscription.level)),
                                                     ("period", .string(subscription.period.rawValue))])))
        }
        if let duration = product.duration { members.append(("duration", .string(duration))) }
        // Only when there are some: a policy without offers reads as before.
        if !product.offers.isEmpty {
            members.append(("offers", .array(product.offers.map { .object([("kind", .string($0.kind.rawValue)), ("id", .string($0.id))]) })))
        }
        return members
    }
}
