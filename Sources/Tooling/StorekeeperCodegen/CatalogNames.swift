import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// The Swift names of one catalog: its namespace, and the case of each
/// product, feature, balance and subscription group. Two sources that make
/// the same case, or a case the generated code already uses, are errors.
struct CatalogNames {
    /// The enum that holds the rest: `rocket-racer` → `RocketRacerCatalog`.
    var namespace: String
    /// Each product's case, in catalog order.
    var products: [String]
    /// Each declared feature's case, by feature name.
    var features: [String: String]
    /// Each declared balance's case, by balance name.
    var balances: [String: String]
    /// Each declared group's case, by group id.
    var groups: [String: String]

    /// Case names every generated enum already has (static members of
    /// `CaseIterable`), which a case would make ambiguous.
    static let reserved: Set<String> = ["allCases"]

    /// The namespace of a catalog: its name in UpperCamelCase, then `Catalog`.
    static func namespace(of catalog: Catalog) -> String {
        (SwiftIdentifier.upperCamel(catalog.name.value, prefix: "Catalog") ?? "") + "Catalog"
    }

    /// Names every part of `catalog`, adding a diagnostic for each collision.
    static func assign(_ catalog: Catalog, diagnostics: inout [Diagnostic]) -> CatalogNames {
        let namespace = namespace(of: catalog)
        let productNames = catalog.products.map { product in
            SwiftIdentifier.lowerCamel(product.referenceName.value, prefix: "product")
                ?? SwiftIdentifier.lowerCamel(idWithoutApp(product.id.value, bundleID: catalog.app.bundleID.value), prefix: "product")
                ?? "product"
        }
        check(
            zip(productNames, catalog.products).map { ($0, $1.referenceName) },
            in: "\(namespace).Product", kind: "reference name", change: "change one of the reference names", diagnostics: &diagnostics)

        func symbols(_ sources: [Located<String>], kind: String, type: String) -> [String: String] {
            let names = sources.map { SwiftIdentifier.lowerCamel($0.value, prefix: kind) ?? kind }
            check(zip(names, sources).map { ($0, $1) }, in: "\(namespace).\(type)", kind: kind, change: "rename one of the \(kind)s", diagnostics: &diagnostics)
            var table: [String: String] = [:]
            for (name, source) in zip(names, sources) where table[source.value] == nil { table[source.value] = name }
            return table
        }
        return CatalogNames(
            namespace: namespace,
            products: productNames,
            features: symbols(catalog.features, kind: "feature", type: "Feature"),
            balances: symbols(catalog.balances, kind: "balance", type: "Balance"),
            groups: symbols(catalog.groups.map(\.id), kind: "group", type: "SubscriptionGroup"))
    }

    /// A product id without the app's bundle id in front, for a product
    /// whose reference name has no letter or digit to name it by
    /// (`com.example.game.coins.500` → `coins.500`).
    static func idWithoutApp(_ id: String, bundleID: String) -> String {
        id.hasPrefix(bundleID + ".") ? String(id.dropFirst(bundleID.count + 1)) : id
    }

    /// Reports every name used twice in one enum (at the later source, with
    /// a note at the first) and every reserved name.
    private static func check(
        _ named: [(name: String, source: Located<String>)], in type: String, kind: String, change: String,
        diagnostics: inout [Diagnostic]
    ) {
        var first: [String: Located<String>] = [:]
        for (name, source) in named {
            if reserved.contains(name) {
                diagnostics.append(Diagnostic(
                    .error, rule: CodegenRuleID.reservedName,
                    "the \(kind) '\(source.value)' becomes the Swift case `\(name)` in \(type), which every generated enum already has (CaseIterable's list of cases); change the \(kind)",
                    at: source.range))
                continue
            }
            guard let earlier = first[name] else {
                first[name] = source
                continue
            }
            diagnostics.append(Diagnostic(
                .error, rule: CodegenRuleID.nameCollision,
                "the \(kind)s '\(earlier.value)' and '\(source.value)' both become the Swift case `\(name)` in \(type) (names keep only their letters and digits); \(change) so that their letters or digits differ",
                at: source.range,
                notes: [Diagnostic.Note("'\(earlier.value)' is here", at: earlier.location)]))
        }
    }
}
