import StorekeeperDiagnostics

/// Puts a catalog file and its fragments together, checking what spans
/// files: unique ids and names, declared references, rule patterns.
enum CatalogAssembler {
    static func assemble(catalog: DecodedFile, fragments: [DecodedFile], files: [String], context: inout DecodingContext) -> Catalog? {
        let all = [catalog] + fragments

        let features = unique(all.flatMap(\.features), kind: "feature", context: &context)
        let balances = unique(all.flatMap(\.balances), kind: "balance", context: &context)
        var groups: [SubscriptionGroup] = []
        var groupsByID: [String: SubscriptionGroup] = [:]
        for group in all.flatMap(\.groups) {
            if let first = groupsByID[group.id.value] {
                context.error(CatalogRuleID.duplicateName, "the group '\(group.id.value)' is declared twice; rename or remove this one", at: group.id,
                              notes: [Diagnostic.Note("first declared here", at: first.id.location)])
                continue
            }
            groupsByID[group.id.value] = group
            groups.append(group)
        }

        // Ids and reference names, including those of products with other errors.
        let decoded = all.flatMap(\.products)
        var ids: [String: Located<String>] = [:]
        var names: [String: Located<String>] = [:]
        ids.reserveCapacity(decoded.count)
        names.reserveCapacity(decoded.count)
        var products: [Product] = []
        products.reserveCapacity(decoded.count)
        for entry in decoded {
            var duplicate = false
            if let id = entry.id {
                if let first = ids[id.value] {
                    context.error(CatalogRuleID.duplicateID, "the product id '\(id.value)' is already used; every product needs its own id", at: id,
                                  notes: [Diagnostic.Note("first used here", at: first.location)])
                    duplicate = true
                } else {
                    ids[id.value] = id
                }
            }
            if let name = entry.referenceName {
                if let first = names[name.value] {
                    context.error(CatalogRuleID.duplicateName, "the reference name '\(name.value)' is already used; App Store Connect needs each to be unique", at: name,
                                  notes: [Diagnostic.Note("first used here", at: first.location)])
                } else {
                    names[name.value] = name
                }
            }
            if let product = entry.product, !duplicate { products.append(product) }
        }

        checkReferences(all.flatMap(\.references), features: features, balances: balances, groups: groups, context: &context)

        var rules: [CustomRule] = []
        var ruleNames: [String: Located<String>] = [:]
        for name in all.flatMap(\.ruleNames) {
            if let first = ruleNames[name.value] {
                context.error(CatalogRuleID.duplicateName, "the rule name '\(name.value)' is already used; give each rule its own name", at: name,
                              notes: [Diagnostic.Note("first used here", at: first.location)])
            } else {
                ruleNames[name.value] = name
            }
        }
        for rule in all.flatMap(\.rules) {
            rules.append(rule)
            if let pattern = rule.condition.product, !decoded.isEmpty {
                checkPattern(pattern, ids: ids, context: &context)
            }
        }

        guard let name = catalog.name, let app = catalog.app else { return nil }
        if decoded.isEmpty {
            context.error(CatalogRuleID.noProducts, "the catalog has no products; list at least one under `products` (here or in an included fragment)", at: name)
        }
        return Catalog(
            name: name, format: catalog.format, app: app, server: catalog.server, features: features, balances: balances,
            groups: groups, products: products, rules: rules, files: files)
    }

    /// The names in order, each once; a repeat is an error with a note at the first.
    private static func unique(_ names: [Located<String>], kind: String, context: inout DecodingContext) -> [Located<String>] {
        var seen: [String: Located<String>] = [:]
        var result: [Located<String>] = []
        for name in names {
            if let first = seen[name.value] {
                context.error(CatalogRuleID.duplicateName, "the \(kind) '\(name.value)' is declared twice; remove this one", at: name,
                              notes: [Diagnostic.Note("first declared here", at: first.location)])
                continue
            }
            seen[name.value] = name
            result.append(name)
        }
        return result
    }

    private static func checkReferences(
        _ uses: [ReferenceUse], features: [Located<String>], balances: [Located<String>], groups: [SubscriptionGroup],
        context: inout DecodingContext
    ) {
        let declared: [ReferenceUse.Kind: Set<String>] = [
            .feature: Set(features.map(\.value)),
            .balance: Set(balances.map(\.value)),
            .group: Set(groups.map(\.id.value)),
        ]
        for use in uses where declared[use.kind]?.contains(use.name.value) != true {
            let candidates = declared[use.kind] ?? []
            var message = "the \(use.kind.rawValue) '\(use.name.value)' is not declared"
            if let nearest = Suggestion.nearest(to: use.name.value, in: candidates.sorted()) {
                message += "; did you mean '\(nearest)'?"
            } else {
                message += "; declare it under `\(use.kind.declaration)`"
            }
            context.error(CatalogRuleID.undeclared, message, at: use.name)
        }
    }

    /// A rule's product pattern should match a product: otherwise it is most likely a typo.
    private static func checkPattern(_ pattern: Located<String>, ids: [String: Located<String>], context: inout DecodingContext) {
        if !pattern.value.contains("*") {
            guard ids[pattern.value] == nil else { return }
            let hint = Suggestion.didYouMean(pattern.value, in: ids.keys.sorted())
            context.diagnostics.append(Diagnostic(.warning, rule: CatalogRuleID.unmatchedPattern, "no product has the id '\(pattern.value)', so this rule never applies\(hint)", at: pattern.range))
            return
        }
        if ids.keys.contains(where: { Glob.matches(pattern.value, $0) }) { return }
        context.diagnostics.append(Diagnostic(.warning, rule: CatalogRuleID.unmatchedPattern, "the pattern '\(pattern.value)' matches no product, so this rule never applies", at: pattern.range))
    }
}

/// Product id patterns: `*` matches any run of characters, everything else itself.
public enum Glob {
    /// Whether `text` matches `pattern`.
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.utf8), t = Array(text.utf8)
        var pi = 0, ti = 0
        var star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] != UInt8(ascii: "*"), p[pi] == t[ti] {
                pi += 1
                ti += 1
            } else if pi < p.count, p[pi] == UInt8(ascii: "*") {
                star = pi
                mark = ti
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.count
    }
}
