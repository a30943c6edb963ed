public import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics

/// Writes a catalog as a StoreKit configuration file that Xcode opens.
///
/// Without a base file, it writes version 4.0 (Xcode 16's): the catalog's
/// products, groups, localizations and offers, with identifiers and internal
/// ids made from the catalog's names (the same on every export) and Xcode
/// 16's default settings and app policies, each listed in a note.
///
/// With a base file (`--base`), it starts from that file and changes only
/// what the catalog holds: everything else (settings, app policies, the
/// identifier, the internal ids of what still exists, billing plans, 5.0's
/// list of introductory offers, eligibility, unknown keys, the version) is
/// kept, and empty texts that an import replaced are written back empty
/// while the catalog still holds what the import wrote. So `import X`, edit,
/// `export --base X` changes only what the edit changed.
public struct StoreKitExporter: Sendable {
    /// The file to start from, read.
    public var base: StoreKitConfiguration?

    /// Creates an exporter.
    public init(base: StoreKitConfiguration? = nil) {
        self.base = base
    }

    /// Exports a catalog.
    public func export(_ catalog: Catalog) -> StoreKitExport {
        var export = ExportBuilder(catalog: catalog, base: base)
        let value = export.build()
        return StoreKitExport(
            value: value, text: StoreKitWriter().write(value), version: export.version, diagnostics: export.diagnostics)
    }
}

/// What exporting gave.
public struct StoreKitExport: Sendable {
    /// The file's JSON.
    public var value: StoreKitValue
    /// The file's text, in Xcode's layout.
    public var text: String
    /// The version written.
    public var version: StoreKitVersion
    /// Notes on what was made up, raised or left out.
    public var diagnostics: [Diagnostic]
}

/// One export.
struct ExportBuilder {
    let catalog: Catalog
    let base: StoreKitConfiguration?
    var version: StoreKitVersion
    var ids: InternalIDs
    var diagnostics: [Diagnostic] = []
    /// The base file's products by id, wherever they are listed.
    var baseProducts: [String: StoreKitValue] = [:]
    /// Where each base product is, for notes.
    var baseLocations: [String: (path: String, range: SourceRange)] = [:]
    /// Each catalog group's id in the file.
    var groupIDs: [String: String] = [:]

    init(catalog: Catalog, base: StoreKitConfiguration?) {
        self.catalog = catalog
        self.base = base
        version = base?.version.value ?? StoreKitVersion.written
        ids = InternalIDs(used: Self.idsInUse(base?.root.value))
        for product in base?.allProducts ?? [] {
            baseLocations[product.productID.value] = (product.path, product.range)
        }
    }

    /// Every `internalID` and group `id` of a file.
    static func idsInUse(_ value: StoreKitValue?) -> Set<String> {
        var found = Set<String>()
        func walk(_ value: StoreKitValue) {
            switch value {
            case .object(let members):
                for member in members {
                    if member.key == "internalID" || member.key == "id", case .string(let id) = member.value { found.insert(id) }
                    walk(member.value)
                }
            case .array(let elements): elements.forEach(walk)
            default: break
            }
        }
        value.map(walk)
        return found
    }

    var catalogStart: SourceRange { catalog.name.range }

    mutating func note(_ message: String, at range: SourceRange, notes: [Diagnostic.Note] = []) {
        diagnostics.append(Diagnostic(.note, rule: StoreKitRuleID.export, message, at: range, notes: notes))
    }

    // MARK: The file

    mutating func build() -> StoreKitValue {
        raiseVersionIfNeeded()
        var root: StoreKitValue
        if let base {
            root = base.root.value
            for list in ["products", "nonRenewingSubscriptions"] {
                for element in root[list]?.elements ?? [] {
                    if let id = element["productID"]?.string { baseProducts[id] = element }
                }
            }
            for group in root["subscriptionGroups"]?.elements ?? [] {
                for element in group["subscriptions"]?.elements ?? [] {
                    if let id = element["productID"]?.string { baseProducts[id] = element }
                }
            }
        } else {
            root = .object([
                "appPolicies": XcodeDefaults.appPolicies,
                "identifier": .string(ids.make("catalog", catalog.name.value)),
                "settings": XcodeDefaults.settings,
            ])
            note(
                "a new StoreKit configuration file (version \(version)): its identifier, internal ids and group ids are made from the catalog's names, the same on every export, and its settings and app policies are Xcode 16's defaults; pass --base FILE.storekit to keep an existing file's",
                at: catalogStart)
        }
        noteWhatIsNotExported()
        let groups = buildGroups(root["subscriptionGroups"]?.elements ?? [])
        root["products"] = .array(buildList(
            root["products"]?.elements ?? [], list: "products", types: [.consumable, .nonConsumable]))
        if version >= StoreKitVersion.nonRenewing {
            root["nonRenewingSubscriptions"] = .array(buildList(
                root["nonRenewingSubscriptions"]?.elements ?? [], list: "nonRenewingSubscriptions", types: [.nonRenewingSubscription]))
            if root["identifier"] == nil { root["identifier"] = .string(ids.make("catalog", catalog.name.value)) }
        }
        root["subscriptionGroups"] = .array(groups)
        if version >= StoreKitVersion.winBackOffers, root["appPolicies"] == nil { root["appPolicies"] = XcodeDefaults.appPolicies }
        if root["settings"] == nil { root["settings"] = .object([]) }
        root["version"] = version.value
        return root
    }

    /// Raises the base file's version to the first that holds what the catalog has.
    mutating func raiseVersionIfNeeded() {
        let offers = catalog.products.flatMap { $0.subscription?.offers ?? [] }
        var needed: [(StoreKitVersion, String)] = []
        if catalog.products.contains(where: { $0.type.value == .nonRenewingSubscription }) {
            needed.append((StoreKitVersion.nonRenewing, "non-renewing subscriptions"))
        }
        if offers.contains(where: { $0.kind.value == .offerCode }) { needed.append((StoreKitVersion.codeOffers, "offer codes")) }
        if offers.contains(where: { $0.kind.value == .winBack }) { needed.append((StoreKitVersion.winBackOffers, "win-back offers")) }
        guard let (target, what) = needed.filter({ $0.0 > version }).max(by: { $0.0 < $1.0 }) else { return }
        let from = version
        version = target
        note(
            "the base file is version \(from), which has no \(what); the file is written as version \(target), the first that has them",
            at: base?.version.range ?? catalogStart)
    }

    mutating func noteWhatIsNotExported() {
        var missing = ["delivery", "persistence", "restore"]
        if catalog.products.contains(where: { $0.maxQuantity != nil }) { missing.append("max-quantity") }
        if catalog.products.contains(where: { $0.duration != nil }) { missing.append("the duration of non-renewing subscriptions") }
        if !catalog.features.isEmpty || !catalog.balances.isEmpty { missing.append("features and balances") }
        if !catalog.rules.isEmpty { missing.append("custom rules") }
        note(
            "\(missing.joined(separator: ", ")) have no place in a StoreKit configuration file and are not written; the catalog stays their source",
            at: catalogStart)
    }

    // MARK: Products

    /// A top-level list: the base file's entries still in the catalog, in
    /// their order, then the catalog's new products of those types.
    mutating func buildList(_ existing: [StoreKitValue], list: String, types: [ProductType]) -> [StoreKitValue] {
        var result: [StoreKitValue] = []
        var placed = Set<String>()
        for entry in existing {
            guard let id = entry["productID"]?.string else {
                result.append(entry)
                continue
            }
            guard let product = catalog.product(id: id), types.contains(product.type.value) else {
                noteLeftOut(id, list: list)
                continue
            }
            placed.insert(id)
            result.append(merge(product, into: entry))
        }
        for product in catalog.products where types.contains(product.type.value) && !placed.contains(product.id.value) {
            result.append(merge(product, into: baseProducts[product.id.value]))
            noteNew(product)
        }
        return result
    }

    mutating func noteLeftOut(_ id: String, list: String) {
        guard catalog.product(id: id) == nil, let place = baseLocations[id] else { return }
        note("`\(place.path)` (\(id)) is not in the catalog, so it is not in the export", at: place.range)
    }

    mutating func noteNew(_ product: Product) {
        guard base != nil, baseProducts[product.id.value] == nil else { return }
        note("\(product.id.value) is not in the base file: it is added, with an internal id made from its id", at: product.id.range)
    }

    /// A product's entry: the base file's, with what the catalog holds written over it.
    mutating func merge(_ product: Product, into existing: StoreKitValue?) -> StoreKitValue {
        var entry = existing ?? .object([])
        let type = StoreKitProductType(product.type.value)
        let formerPrice = entry["displayPrice"]?.string.flatMap { Price(parsing: $0) }
        entry["productID"] = .string(product.id.value)
        entry["referenceName"] = .string(product.referenceName.value)
        entry["type"] = .string(type.rawValue)
        entry["displayPrice"] = .string(Self.price(product.price.value, keeping: entry["displayPrice"]))
        if [.nonConsumable, .autoRenewableSubscription].contains(product.type.value) || entry["familyShareable"] == nil {
            entry["familyShareable"] = .bool(product.isFamilyShareable)
        }
        entry["localizations"] = .array(mergeLocalizations(product, into: entry["localizations"]?.elements))
        if entry["internalID"] == nil { entry["internalID"] = .string(ids.make("product", product.id.value)) }
        if let subscription = product.subscription {
            mergeSubscription(product, subscription, formerPrice: formerPrice, into: &entry)
        }
        return entry
    }

    /// A price as the file writes it: the base text when it is the same amount (`28` stays `28`).
    static func price(_ price: Price, keeping existing: StoreKitValue?) -> String {
        if let text = existing?.string, Price(parsing: text) == price { return text }
        return price.description
    }

    /// A period as the file writes it: the base text when it is the same period.
    static func period(_ period: ISOPeriod, keeping existing: StoreKitValue?) -> String {
        if let text = existing?.string, case .success(let parsed) = ISOPeriod.parse(text), parsed == period { return text }
        return period.description
    }

    func mergeLocalizations(_ product: Product, into existing: [StoreKitValue]?) -> [StoreKitValue] {
        let existing = existing ?? []
        // An import gave a product with no localization one made of its reference name.
        if existing.isEmpty, base != nil, product.localizations.count == 1, let only = product.localizations.first,
           only.locale.value == FilledValues.locale, only.title.value == product.referenceName.value,
           only.description.value == product.referenceName.value, baseProducts[product.id.value] != nil {
            return []
        }
        var result: [StoreKitValue] = []
        var placed = Set<String>()
        for entry in existing {
            guard let locale = entry["locale"]?.string,
                  let localization = product.localizations.first(where: { $0.locale.value == StoreKitLocalization.catalogLocale(locale) })
            else { continue }
            placed.insert(localization.locale.value)
            result.append(Self.localization(localization, product: product, into: entry))
        }
        for localization in product.localizations where !placed.contains(localization.locale.value) {
            result.append(Self.localization(localization, product: product, into: nil))
        }
        return result
    }

    static func localization(_ localization: Localization, product: Product, into existing: StoreKitValue?) -> StoreKitValue {
        var entry = existing ?? .object([])
        let title = localization.title.value, description = localization.description.value
        // Empty texts an import replaced go back empty while the catalog still holds the replacement.
        let wasEmptyTitle = existing?["displayName"]?.string == ""
            && title == FilledValues.title("", referenceName: product.referenceName.value)
        let wasEmptyDescription = existing?["description"]?.string == ""
            && description == FilledValues.description("", title: title)
        entry["description"] = .string(wasEmptyDescription ? "" : description)
        entry["displayName"] = .string(wasEmptyTitle ? "" : title)
        entry["locale"] = .string(existing?["locale"]?.string ?? StoreKitLocalization.storeKitLocale(localization.locale.value))
        return entry
    }
}
