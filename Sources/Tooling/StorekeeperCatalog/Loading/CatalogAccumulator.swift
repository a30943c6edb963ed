import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML

/// Gathers what a catalog's files declare and define, in reading order
/// (catalog file first, then fragments in include order), checking
/// uniqueness as each name arrives; `finish` checks references and builds the
/// `Catalog`. Products go straight into one array, never copied between files.
struct CatalogAccumulator {
    var products: [Product] = []
    var rules: [CustomRule] = []
    var references: [ReferenceUse] = []
    private var features: [Located<String>] = []
    private var balances: [Located<String>] = []
    private var groups: [SubscriptionGroup] = []
    private var firstFeature: [String: SourceLocation] = [:]
    private var firstBalance: [String: SourceLocation] = [:]
    private var firstGroup: [String: SourceLocation] = [:]
    private var firstID: [String: SourceLocation] = [:]
    private var firstReferenceName: [String: SourceLocation] = [:]
    private var firstRuleName: [String: SourceLocation] = [:]
    /// Product entries read, valid or not.
    private var productEntries = 0
    /// Whether some `products` was written but is not a list (reported):
    /// the catalog is then not reported as having none.
    var productsAreUnreadable = false
    /// Declarations written but refused, as `kind NUL name` (their errors are
    /// reported): uses of them are not reported again as undeclared.
    private var refused: Set<String> = []
    /// Kinds whose declarations could not be read at all (reported).
    private var unreadable: Set<ReferenceUse.Kind> = []

    /// Notes a declaration that was refused; nil when its name could not be read either.
    mutating func refuse(_ kind: ReferenceUse.Kind, named name: String?) {
        guard let name else { return refuseAll(kind) }
        refused.insert(kind.rawValue + "\u{0}" + name)
    }

    /// Notes that a kind's declarations could not be read (a list that is not a list).
    mutating func refuseAll(_ kind: ReferenceUse.Kind) {
        unreadable.insert(kind)
    }

    /// Notes that a whole file's declarations could not be read (a fragment
    /// refused, unreadable, or not a mapping; reported): what it might have
    /// declared is not reported again as undeclared.
    mutating func refuseAllDeclarations() {
        for kind in [ReferenceUse.Kind.feature, .balance, .group] { refuseAll(kind) }
    }

    /// Makes room for `count` more products, so the tables never rehash while they fill.
    mutating func reserve(_ count: Int) {
        products.reserveCapacity(products.count + count)
        firstID.reserveCapacity(firstID.count + count)
        firstReferenceName.reserveCapacity(firstReferenceName.count + count)
        references.reserveCapacity(references.count + 2 * count)
    }

    mutating func declare(feature: Located<String>, context: inout YAMLDecodingContext) {
        if Self.isFirst(feature, kind: "feature", in: &firstFeature, context: &context) { features.append(feature) }
    }

    mutating func declare(balance: Located<String>, context: inout YAMLDecodingContext) {
        if Self.isFirst(balance, kind: "balance", in: &firstBalance, context: &context) { balances.append(balance) }
    }

    mutating func declare(group: SubscriptionGroup, context: inout YAMLDecodingContext) {
        if Self.isFirst(group.id, kind: "group", in: &firstGroup, context: &context) { groups.append(group) }
    }

    mutating func declare(ruleName: Located<String>, context: inout YAMLDecodingContext) {
        _ = Self.isFirst(ruleName, kind: "rule name", in: &firstRuleName, context: &context, verb: "used")
    }

    /// Registers a decoded product entry: its id and reference name must be
    /// new (a repeat is an error with a note at the first); a complete product
    /// with a new id joins the catalog.
    mutating func add(_ entry: consuming DecodedProduct, context: inout YAMLDecodingContext) {
        let duplicate = register(id: entry.id, referenceName: entry.referenceName, context: &context)
        if !duplicate, let product = (consume entry).product { products.append(product) }
    }

    /// Registers a file's streamed products in file order, together with the
    /// items kept in its tree (`keptItems`, in order), completing drafts with
    /// `defaults`. When every product was finished while parsing, their array
    /// is adopted as it is rather than copied product by product.
    mutating func adopt(_ stream: ProductStream, defaults: Defaults, keptItems: YAMLNode.Items, context: inout YAMLDecodingContext) {
        context.diagnostics.append(contentsOf: stream.context.diagnostics)
        references.append(contentsOf: stream.references)
        var finished = stream.takeProducts()
        // Products finished before the defaults were known may still inherit family sharing.
        if stream.defaults == nil, let family = defaults.familyShareable {
            for index in finished.indices where finished[index].familyShareable == nil
                && (finished[index].type.value == .nonConsumable || finished[index].type.value == .autoRenewableSubscription) {
                finished[index].familyShareable = family
            }
        }
        let allFinished = stream.slots.allSatisfy { if case .finished = $0 { true } else { false } }
        if allFinished {
            var duplicates = Set<Int>()
            for case .finished(let id, let name, let index) in stream.slots {
                if register(id: id, referenceName: name, context: &context), let index { duplicates.insert(index) }
            }
            if !duplicates.isEmpty {
                finished = finished.indices.filter { !duplicates.contains($0) }.map { finished[$0] }
            }
            if products.isEmpty { products = finished } else { products.append(contentsOf: finished) }
            return
        }
        reserve(stream.slots.count)
        var kept = keptItems.makeIterator()
        for slot in stream.slots {
            switch slot {
            case .finished(let id, let name, let index):
                if !register(id: id, referenceName: name, context: &context), let index { products.append(finished[index]) }
            case .draft(let index):
                add(ProductDecoder.complete(stream.drafts[index], defaults: defaults, context: &context), context: &context)
            case .kept:
                if let item = kept.next() {
                    add(ProductDecoder.decode(item, defaults: defaults, context: &context, references: &references), context: &context)
                }
            }
        }
    }

    /// Counts a product entry and checks that its id and reference name are
    /// new; returns whether the id is a duplicate (the product is then left out).
    private mutating func register(id: Located<String>?, referenceName name: Located<String>?, context: inout YAMLDecodingContext) -> Bool {
        productEntries += 1
        var duplicate = false
        if let id {
            if let first = firstID[id.value] {
                context.error(CatalogRuleID.duplicateID, "the product id '\(id.value)' is already used; every product needs its own id", at: id,
                              notes: [Diagnostic.Note("first used here", at: first)])
                duplicate = true
            } else {
                firstID[id.value] = id.location
            }
        }
        if let name {
            if let first = firstReferenceName[name.value] {
                context.error(CatalogRuleID.duplicateName, "the reference name '\(name.value)' is already used; App Store Connect needs each to be unique", at: name,
                              notes: [Diagnostic.Note("first used here", at: first)])
            } else {
                firstReferenceName[name.value] = name.location
            }
        }
        return duplicate
    }

    /// Checks references and rule patterns, and builds the catalog when its
    /// header could be read.
    mutating func finish(_ file: DecodedFile, files: [String], context: inout YAMLDecodingContext) -> Catalog? {
        checkReferences(context: &context)
        var sortedIDs: [String]?
        for rule in rules {
            guard let pattern = rule.condition.product, productEntries > 0 else { continue }
            checkPattern(pattern, sortedIDs: &sortedIDs, context: &context)
        }
        guard let name = file.name, let app = file.app else { return nil }
        // Products may be in what could not be read: a `products` that is not a
        // list, an include refused, a file that did not parse; and a format
        // this version cannot read may keep them elsewhere.
        let unreadFile: Set<String> = [CatalogRuleID.include, YAMLRuleID.syntax, YAMLRuleID.limit]
        if productEntries == 0, !productsAreUnreadable, !file.formatIsUnsupported,
           !context.diagnostics.all.contains(where: { $0.severity == .error && unreadFile.contains($0.rule) }) {
            context.error(CatalogRuleID.noProducts, "the catalog has no products; list at least one under `products` (here or in an included fragment)", at: name)
        }
        return Catalog(
            name: name, format: file.format, app: app, server: file.server, serverIsInvalid: file.serverIsInvalid, refunds: file.refunds,
            features: features, balances: balances,
            groups: groups, products: products, rules: rules, files: files)
    }

    private static func isFirst(
        _ name: Located<String>, kind: String, in seen: inout [String: SourceLocation], context: inout YAMLDecodingContext, verb: String = "declared"
    ) -> Bool {
        if let first = seen[name.value] {
            let message = verb == "used"
                ? "the \(kind) '\(name.value)' is already used; give each its own"
                : "the \(kind) '\(name.value)' is declared twice; remove this one"
            context.error(CatalogRuleID.duplicateName, message, at: name, notes: [Diagnostic.Note("first \(verb) here", at: first)])
            return false
        }
        seen[name.value] = name.location
        return true
    }

    private func checkReferences(context: inout YAMLDecodingContext) {
        // Candidates sorted once per kind, and one suggestion per unknown name:
        // a file can misspell the same name thousands of times.
        var sortedCandidates: [ReferenceUse.Kind: [String]] = [:]
        var suggestions: [String: String] = [:]
        for use in references {
            let declared: [String: SourceLocation]
            switch use.kind {
            case .feature: declared = firstFeature
            case .balance: declared = firstBalance
            case .group: declared = firstGroup
            }
            guard declared[use.name.value] == nil else { continue }
            let memoKey = use.kind.rawValue + "\u{0}" + use.name.value
            // A declaration refused is reported where it is written, not again at every use.
            guard !unreadable.contains(use.kind), !refused.contains(memoKey) else { continue }
            let hint: String
            if let known = suggestions[memoKey] {
                hint = known
            } else {
                if sortedCandidates[use.kind] == nil { sortedCandidates[use.kind] = declared.keys.sorted() }
                if let nearest = Suggestion.nearest(to: use.name.value, in: sortedCandidates[use.kind] ?? []) {
                    hint = "; did you mean '\(nearest)'?"
                } else {
                    hint = "; declare it under `\(use.kind.declaration)`"
                }
                suggestions[memoKey] = hint
            }
            context.error(CatalogRuleID.undeclared, "the \(use.kind.rawValue) '\(use.name.value)' is not declared\(hint)", at: use.name)
        }
    }

    /// A rule's product pattern should match a product: otherwise it is most likely a typo.
    private func checkPattern(_ pattern: Located<String>, sortedIDs: inout [String]?, context: inout YAMLDecodingContext) {
        if !pattern.value.contains("*") {
            guard firstID[pattern.value] == nil else { return }
            if sortedIDs == nil { sortedIDs = firstID.keys.sorted() }
            let hint = Suggestion.didYouMean(pattern.value, in: sortedIDs ?? [])
            context.diagnostics.append(Diagnostic(.warning, rule: CatalogRuleID.unmatchedPattern, "no product has the id '\(pattern.value)', so this rule never applies\(hint)", at: pattern.range))
            return
        }
        if firstID.keys.contains(where: { Glob.matches(pattern.value, $0) }) { return }
        context.diagnostics.append(Diagnostic(.warning, rule: CatalogRuleID.unmatchedPattern, "the pattern '\(pattern.value)' matches no product, so this rule never applies", at: pattern.range))
    }
}
