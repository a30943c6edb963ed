import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// The Swift of one catalog: its namespace enum with `Product`, `Feature`,
/// `Balance` and `SubscriptionGroup`, then what each product unlocks,
/// grants and belongs to, as extensions.
struct CatalogSource {
    var catalog: Catalog
    var names: CatalogNames
    var options: CodegenOptions

    /// The access modifier and a space: `internal `.
    private var access: String { options.access.rawValue + " " }
    private var namespace: String { names.namespace }

    func write(to out: inout SourceWriter) {
        out.documentation([
            "The in-app purchases of the catalog `\(SwiftText.comment(catalog.name.value))` (app `\(SwiftText.comment(catalog.app.bundleID.value))`): its products, the features they unlock, the balances they add to and its subscription groups.",
            "Generated from `\(SwiftText.comment(options.displayPath(catalog.files.first ?? catalog.name.location.file)))`.",
        ])
        out.block("\(access)enum \(namespace)") { out in
            writeProducts(to: &out)
            out.line()
            writeSymbols(
                catalog.features, names: names.features, type: "Feature",
                documentation: "A feature that products unlock. The raw value is its name in the catalog.", kind: "feature", to: &out)
            out.line()
            writeSymbols(
                catalog.balances, names: names.balances, type: "Balance",
                documentation: "A balance that consumables add to. The raw value is its name in the catalog.", kind: "balance", to: &out)
            out.line()
            writeSymbols(
                catalog.groups.map(\.id), names: names.groups, type: "SubscriptionGroup",
                documentation: "An auto-renewable subscription group. The raw value is its id in the catalog.", kind: "group", to: &out,
                detail: { id in catalog.groups.first { $0.id.value == id }.map { "Shown as \"\(SwiftText.comment($0.name.value))\"." } })
        }
        out.line()
        writeProductProperties(to: &out)
        out.line()
        writeReverseLookups(to: &out)
    }

    // MARK: - The enums

    private func writeProducts(to out: inout SourceWriter) {
        out.documentation([
            "A product of the catalog. The raw value is its App Store product identifier, so `Product(rawValue: transaction.productID)` finds a StoreKit transaction's product.",
        ])
        let conformances = catalog.products.isEmpty ? "RawRepresentable, CaseIterable, Hashable, Sendable" : "String, CaseIterable, Sendable"
        out.block("\(access)enum Product: \(conformances)") { out in
            for (index, product) in catalog.products.enumerated() {
                if index > 0 { out.line() }
                out.documentation([
                    "\(SwiftText.comment(product.referenceName.value)): \(summary(of: product)).",
                    "Declared in `\(SwiftText.comment(options.displayPath(product.location.file)))`, line \(product.location.line).",
                ])
                out.line("case \(SwiftIdentifier.escaped(names.products[index])) = \(SwiftText.literal(product.id.value))")
            }
            if catalog.products.isEmpty { writeNoCases(to: &out) }
            out.line()
            out.documentation(["The four kinds of in-app purchase product. The raw value is the type's name in a catalog."])
            out.block("\(access)enum ProductType: String, CaseIterable, Sendable") { out in
                for type in ProductType.allCases {
                    out.documentation([Self.typeDocumentation(type)])
                    let name = SwiftIdentifier.lowerCamel(type.rawValue, prefix: "type") ?? type.rawValue
                    out.line(name == type.rawValue ? "case \(name)" : "case \(name) = \(SwiftText.literal(type.rawValue))")
                }
            }
        }
    }

    /// An enum of declared names (features, balances, groups). An enum with
    /// no cases cannot have a raw type, so an empty one gets `rawValue` by hand.
    private func writeSymbols(
        _ sources: [Located<String>], names: [String: String], type: String, documentation: String, kind: String,
        to out: inout SourceWriter, detail: (String) -> String? = { _ in nil }
    ) {
        out.documentation([sources.isEmpty ? documentation + " The catalog declares none." : documentation])
        guard !sources.isEmpty else {
            out.block("\(access)enum \(type): RawRepresentable, CaseIterable, Hashable, Sendable") { out in
                writeNoCases(to: &out)
            }
            return
        }
        out.block("\(access)enum \(type): String, CaseIterable, Sendable") { out in
            for (index, source) in sources.enumerated() {
                if index > 0 { out.line() }
                let name = names[source.value] ?? source.value
                var paragraphs = ["The \(kind) `\(SwiftText.comment(source.value))`." + (detail(source.value).map { " " + $0 } ?? "")]
                paragraphs.append("Declared in `\(SwiftText.comment(options.displayPath(source.location.file)))`, line \(source.location.line).")
                out.documentation(paragraphs)
                let escaped = SwiftIdentifier.escaped(name)
                out.line(name == source.value ? "case \(escaped)" : "case \(escaped) = \(SwiftText.literal(source.value))")
            }
        }
    }

    /// The raw value conformance of an enum with no cases.
    private func writeNoCases(to out: inout SourceWriter) {
        out.documentation(["Never a value: there are no cases."])
        out.line("\(access)init?(rawValue: String) { return nil }")
        out.line()
        out.documentation(["Never called: there are no cases."])
        out.line("\(access)var rawValue: String { switch self {} }")
    }

    // MARK: - What each product is

    private func writeProductProperties(to out: inout SourceWriter) {
        let products = catalog.products
        out.block("extension \(namespace).Product") { out in
            out.documentation(["Which of the four kinds of product this is."])
            writeSwitch("var type: ProductType", values: products.map { "." + (SwiftIdentifier.lowerCamel($0.type.value.rawValue, prefix: "type") ?? "") }, to: &out)
            out.line()
            out.documentation(["The features a purchase unlocks, in catalog order."])
            writeSwitch("var unlocks: [\(namespace).Feature]", values: products.map { product in
                "[" + product.delivery.unlocks.map { "." + member(names.features, $0.value) }.joined(separator: ", ") + "]"
            }, to: &out)
            out.line()
            out.documentation(["What one unit bought adds to each balance: empty for a product that grants nothing. (A payment for several units adds this times the quantity.)"])
            writeSwitch("var grants: [\(namespace).Balance: Int]", values: products.map { product in
                product.delivery.grants.isEmpty
                    ? "[:]"
                    : "[" + product.delivery.grants.map { ".\(member(names.balances, $0.balance.value)): \($0.amount.value)" }.joined(separator: ", ") + "]"
            }, to: &out)
            out.line()
            out.documentation(["The group of an auto-renewable subscription; nil for the other types."])
            writeSwitch("var subscriptionGroup: \(namespace).SubscriptionGroup?", values: products.map { product in
                guard let group = product.subscription?.group.value else { return "nil" }
                let name = member(names.groups, group)
                // `.none` and `.some` would be read as Optional's own cases.
                return name == "none" || name == "some" ? "\(namespace).SubscriptionGroup.\(name)" : "." + name
            }, to: &out)
            out.line()
            out.documentation(["The level of an auto-renewable subscription in its group (1 is the highest); nil for the other types."])
            writeSwitch("var subscriptionLevel: Int?", values: products.map { $0.subscription.map { "\($0.effectiveLevel)" } ?? "nil" }, to: &out)
        }
    }

    /// A computed property as a switch over the products: the products that
    /// share a value share a `case`, in the order their values first appear.
    private func writeSwitch(_ declaration: String, values: [String], to out: inout SourceWriter) {
        out.block(access + declaration) { out in
            guard !values.isEmpty else {
                out.line("switch self {}")
                return
            }
            var order: [String] = []
            var products: [String: [String]] = [:]
            for (index, value) in values.enumerated() {
                if products[value] == nil { order.append(value) }
                products[value, default: []].append("." + SwiftIdentifier.escaped(names.products[index]))
            }
            out.line("switch self {")
            for value in order {
                let cases = products[value] ?? []
                for (index, name) in cases.enumerated() {
                    let last = index == cases.count - 1
                    out.line((index == 0 ? "case " : "     ") + name + (last ? ":" : ","))
                }
                out.line("    return \(value)")
            }
            out.line("}")
        }
    }

    // MARK: - From features, balances and groups to products

    private func writeReverseLookups(to out: inout SourceWriter) {
        let products = catalog.products.indices
        out.block("extension \(namespace).Feature") { out in
            out.documentation(["The products that unlock this feature, in catalog order."])
            writeList("var unlockedBy: [\(namespace).Product]", cases: catalog.features.map(\.value), names: names.features, to: &out) { feature in
                products.filter { catalog.products[$0].delivery.unlocks.contains { $0.value == feature } }
            }
        }
        out.line()
        out.block("extension \(namespace).Balance") { out in
            out.documentation(["The products that add to this balance, in catalog order."])
            writeList("var grantedBy: [\(namespace).Product]", cases: catalog.balances.map(\.value), names: names.balances, to: &out) { balance in
                products.filter { catalog.products[$0].delivery.grants.contains { $0.balance.value == balance } }
            }
        }
        out.line()
        out.block("extension \(namespace).SubscriptionGroup") { out in
            out.documentation(["The subscriptions in this group, highest level (1) first, then in catalog order."])
            writeList("var products: [\(namespace).Product]", cases: catalog.groups.map(\.id.value), names: names.groups, to: &out) { group in
                products
                    .filter { catalog.products[$0].subscription?.group.value == group }
                    .sorted { lhs, rhs in
                        let left = catalog.products[lhs].subscription?.effectiveLevel ?? 0
                        let right = catalog.products[rhs].subscription?.effectiveLevel ?? 0
                        return left == right ? lhs < rhs : left < right
                    }
            }
        }
    }

    /// A property that lists products for each case of a declared-name enum.
    private func writeList(_ declaration: String, cases: [String], names caseNames: [String: String], to out: inout SourceWriter, products: (String) -> [Int]) {
        out.block(access + declaration) { out in
            guard !cases.isEmpty else {
                out.line("switch self {}")
                return
            }
            out.line("switch self {")
            for source in cases {
                let listed = products(source).map { "." + SwiftIdentifier.escaped(names.products[$0]) }
                out.line("case .\(member(caseNames, source)):")
                out.line("    return [\(listed.joined(separator: ", "))]")
            }
            out.line("}")
        }
    }

    // MARK: - Helpers

    /// The case of a declared name as written after a dot.
    private func member(_ table: [String: String], _ source: String) -> String {
        SwiftIdentifier.escaped(table[source] ?? source)
    }

    /// "a consumable, 0.99", "an auto-renewable subscription in the group `pro` at level 2, 2.99 every month".
    private func summary(of product: Product) -> String {
        let price = product.price.value.description
        switch product.type.value {
        case .consumable:
            return "a consumable, \(price)"
        case .nonConsumable:
            return "a non-consumable, \(price)"
        case .autoRenewableSubscription:
            guard let subscription = product.subscription else { return "an auto-renewable subscription, \(price)" }
            return "an auto-renewable subscription in the group `\(SwiftText.comment(subscription.group.value))` at level \(subscription.effectiveLevel), \(price) \(Self.renewal(subscription.period.value))"
        case .nonRenewingSubscription:
            let duration = product.duration.map { " of \($0.value)" } ?? ""
            return "a non-renewing subscription\(duration), \(price)"
        }
    }

    private static func renewal(_ period: SubscriptionPeriod) -> String {
        switch period {
        case .oneWeek: "every week"
        case .oneMonth: "every month"
        case .twoMonths: "every two months"
        case .threeMonths: "every three months"
        case .sixMonths: "every six months"
        case .oneYear: "every year"
        }
    }

    private static func typeDocumentation(_ type: ProductType) -> String {
        switch type {
        case .consumable: "Used up and bought again (coins, hints); not restored."
        case .nonConsumable: "Bought once, kept for good, restored."
        case .autoRenewableSubscription: "Renews every period until cancelled; part of a subscription group."
        case .nonRenewingSubscription: "Lasts a fixed duration; the app tracks its expiry."
        }
    }
}
