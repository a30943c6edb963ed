public import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics
public import StorekeeperYAML

/// Turns a StoreKit configuration file into a catalog: YAML in the catalog
/// format's own style, read back by `CatalogLoader` before it is handed out,
/// with every problem reported where it is in the StoreKit file.
///
/// What the file has and the catalog holds is carried over; what the catalog
/// needs and the file does not say (delivery, persistence, restore, a
/// non-renewing subscription's duration, the bundle id) is filled with the
/// In-App Purchase guide's defaults and listed, in YAML comments and as
/// notes; empty texts the catalog cannot hold are replaced, with a warning;
/// and what the catalog cannot hold at all is an error.
public struct StoreKitImporter: Sendable {
    /// The catalog's name (`--name`); nil: made from the file's name.
    public var catalogName: String?
    /// The app's bundle id (`--bundle-id`); nil: a placeholder, listed.
    public var bundleID: String?
    /// Where the catalog is written, which its diagnostics name before they
    /// are moved to the StoreKit file; nil: `<name>.yaml`.
    public var catalogPath: String?
    /// The limits the catalog is read back with.
    public var limits: YAMLLimits

    /// Creates an importer.
    public init(catalogName: String? = nil, bundleID: String? = nil, catalogPath: String? = nil, limits: YAMLLimits = .default) {
        self.catalogName = catalogName
        self.bundleID = bundleID
        self.catalogPath = catalogPath
        self.limits = limits
    }

    /// Imports a configuration.
    public func importCatalog(from configuration: StoreKitConfiguration) -> StoreKitImport {
        var builder = ImportBuilder(configuration: configuration, importer: self)
        builder.build()
        let text = builder.text.text
        var map = builder.text.map
        let loaded = CatalogLoader(reader: InMemorySourceReader([map.catalogPath: text]), limits: limits).load(map.catalogPath)
        map.catalogPath = loaded.files.first ?? map.catalogPath
        let diagnostics = builder.diagnostics + loaded.diagnostics.map(map.translate)
        return StoreKitImport(text: text, catalog: loaded.catalog, diagnostics: diagnostics, sourceMap: map, catalogName: builder.name)
    }
}

/// What importing gave.
public struct StoreKitImport: Sendable {
    /// The catalog's YAML.
    public var text: String
    /// The catalog as `CatalogLoader` reads `text` back.
    public var catalog: Catalog?
    /// Every problem and every filled value, located in the StoreKit file.
    public var diagnostics: [Diagnostic]
    /// Where each line of `text` came from: for moving the diagnostics of
    /// later checks (the policy rules) to the StoreKit file.
    public var sourceMap: SourceMap
    /// The catalog's name.
    public var catalogName: String

    /// Whether any diagnostic is an error: the catalog must not be written.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Builds one import's text and notes.
private struct ImportBuilder {
    let configuration: StoreKitConfiguration
    let importer: StoreKitImporter
    let name: String
    var text: CatalogText
    var diagnostics: [Diagnostic] = []
    /// Products that got each type's defaults, and non-renewing subscriptions that got a duration.
    var defaulted: [ProductType: [StoreKitProduct]] = [:]
    var placeholders = 0

    init(configuration: StoreKitConfiguration, importer: StoreKitImporter) {
        self.configuration = configuration
        self.importer = importer
        name = importer.catalogName ?? ImportNaming.catalogName(fromFile: configuration.file)
        text = CatalogText(catalogPath: importer.catalogPath ?? "\(name).yaml", fileStart: SourceRange(start: configuration.root.location))
    }

    var root: SourceRange { SourceRange(start: configuration.root.location) }

    mutating func build() {
        let groupKeys = ImportNaming.groupKeys(for: configuration.groups.map(\.name.value))
        var body = CatalogText(catalogPath: text.map.catalogPath, fileStart: root)
        swap(&text, &body)
        writeBody(groupKeys: groupKeys)
        swap(&text, &body)
        writeHeader()
        for (line, origin) in zip(body.lines, body.map.origins) {
            text.add(0, line, from: origin?.range, key: origin?.catalogKey)
        }
        noteDefaults()
    }

    // MARK: The header

    mutating func writeHeader() {
        let file = configuration.file.split(separator: "/").last.map(String.init) ?? configuration.file
        text.comment("Imported by `storekeeper import` from \(file) (StoreKit configuration version \(configuration.version.value)).")
        text.comment("Review before use:")
        if importer.bundleID == nil {
            text.comment("- app.bundle-id is a placeholder: write the app's bundle id (or import again with --bundle-id).", hanging: 2)
        }
        text.comment(
            "- delivery, persistence and restore are not in a StoreKit configuration file: each product has the In-App Purchase guide's defaults for its type, marked `default` below. Check them against how the app delivers, records and restores each purchase.",
            hanging: 2)
        text.comment(
            "- what each product unlocks or grants is not in the file either: declare features and balances, and add `unlocks` and `grants` to the products' delivery.",
            hanging: 2)
        if defaulted[.nonRenewingSubscription] != nil {
            text.comment("- each non-renewing subscription's duration is a placeholder (\(ImportDefaults.duration)): set it.", hanging: 2)
        }
        if placeholders > 0 {
            text.comment("- values marked `placeholder` were empty in the file, which a catalog cannot hold: write them.", hanging: 2)
        }
        let kept = ["identifier", "settings", "appPolicies", "subscriptionOffersKeyPair"].filter { configuration.root[$0] != nil }
            + ["internal ids", "group ids"]
            + (configuration.allProducts.contains { $0.subscription != nil } ? ["billing plans and offer eligibility, where the file has them"] : [])
        text.comment("Not in this catalog, and kept by `storekeeper export --base \(file)`: \(kept.joined(separator: ", ")).")
    }

    // MARK: The body

    mutating func writeBody(groupKeys: [String]) {
        text.add(0, "catalog: \(name)", from: root, key: "catalog")
        text.add(0, "format: 1", from: root)
        text.add(0, "app:", from: root)
        let bundleID = importer.bundleID ?? ImportNaming.placeholderBundleID(for: name)
        text.add(2, "bundle-id: \(YAMLScalar.text(bundleID))", from: root, key: "bundle-id", comment: importer.bundleID == nil ? "placeholder: not in a StoreKit configuration file" : nil)
        if importer.bundleID == nil {
            diagnostics.append(Diagnostic(
                .note, rule: StoreKitRuleID.filled,
                "the app's bundle id is not in a StoreKit configuration file; the catalog has the placeholder \(bundleID): write the app's, or pass --bundle-id",
                at: root))
        }
        if !configuration.groups.isEmpty {
            text.add(0, "groups:", from: root, key: "groups")
            for (group, key) in zip(configuration.groups, groupKeys) {
                writeGroup(group, key: key)
            }
        }
        // With none, `[]`, which the catalog reports as a catalog with no products.
        text.add(0, configuration.allProducts.isEmpty ? "products: []" : "products:", from: root, key: "products")
        for product in configuration.products {
            writeProduct(product, groupKey: nil)
        }
        for (group, key) in zip(configuration.groups, groupKeys) {
            for product in group.subscriptions { writeProduct(product, groupKey: key) }
        }
    }

    mutating func writeGroup(_ group: StoreKitGroup, key: String) {
        text.add(2, "\(key):", from: group.name.range, key: "groups")
        var name = group.name.value
        if name.isEmpty {
            name = key
            placeholder("the name of `\(group.path)` is empty, and a catalog group's name cannot be: the catalog has its key, '\(key)', in its place", at: group.name.range)
        }
        text.add(4, "name: \(YAMLScalar.text(name))", from: group.name.range, key: "name", comment: group.name.value.isEmpty ? "placeholder: empty in the file" : nil)
        guard !group.localizations.isEmpty else { return }
        text.add(4, "localizations:", from: group.localizations[0].range, key: "localizations")
        for localization in group.localizations {
            text.add(6, "\(YAMLScalar.text(localization.catalogLocale)):", from: localization.locale.range, key: "localizations")
            var localized = localization.displayName.value
            if localized.isEmpty {
                localized = name
                placeholder(
                    "the \(localization.locale.value) display name of `\(group.path)` is empty, and a catalog group's localized name cannot be: the catalog has the group's name, '\(name)', in its place",
                    at: localization.displayName.range)
            }
            text.add(8, "name: \(YAMLScalar.text(localized))", from: localization.displayName.range, key: "name", comment: localization.displayName.value.isEmpty ? "placeholder: empty in the file" : nil)
        }
    }

    mutating func writeProduct(_ product: StoreKitProduct, groupKey: String?) {
        let type = product.type.value.catalogType
        text.add(2, "- id: \(YAMLScalar.text(product.productID.value))", from: product.productID.range, key: "id")
        text.add(4, "type: \(type.rawValue)", from: product.type.range, key: "type")
        text.add(4, "reference-name: \(YAMLScalar.text(product.referenceName.value))", from: product.referenceName.range, key: "reference-name")
        text.add(4, "price: \(YAMLScalar.quoted(product.displayPrice.value))", from: product.displayPrice.range, key: "price")
        if let family = product.familyShareable, family.value {
            text.add(4, "family-shareable: true", from: family.range, key: "family-shareable")
        }
        if let terms = product.subscription, let groupKey {
            text.add(4, "group: \(groupKey)", from: product.range, key: "group")
            text.add(4, "level: \(terms.groupNumber.value)", from: terms.groupNumber.range, key: "level")
            text.add(4, "period: \(YAMLScalar.text(terms.period.value))", from: terms.period.range, key: "period")
            if let offer = terms.introductoryOffer {
                text.add(4, "introductory-offer:", from: offer.range, key: "introductory-offer")
                writeTerms(of: offer, indentation: 6)
            }
            if !terms.offers.isEmpty {
                text.add(4, "offers:", from: terms.offers[0].range, key: "offers")
                for offer in terms.offers {
                    text.add(6, "- id: \(YAMLScalar.text(offer.offerID?.value ?? ""))", from: offer.offerID?.range ?? offer.range, key: "id")
                    text.add(8, "kind: \(offer.kind.catalogKind?.rawValue ?? "")", from: offer.range, key: "kind")
                    text.add(8, "reference-name: \(YAMLScalar.text(offer.referenceName?.value ?? ""))", from: offer.referenceName?.range ?? offer.range, key: "reference-name")
                    writeTerms(of: offer, indentation: 8)
                }
            }
        }
        if type == .nonRenewingSubscription {
            text.add(4, "duration: \(ImportDefaults.duration)", from: product.range, key: "duration", comment: "placeholder: not in a StoreKit configuration file")
        }
        writeLocalizations(of: product)
        let defaults = ImportDefaults.forType(type)
        let comment = "default for \(type.rawValue.replacingHyphens.withArticle) (see the header)"
        text.add(4, "delivery: \(defaults.delivery)", from: product.range, key: "delivery", comment: comment)
        text.add(4, "persistence: \(defaults.persistence)", from: product.range, key: "persistence", comment: comment)
        text.add(4, "restore: \(defaults.restore)", from: product.range, key: "restore", comment: comment)
        defaulted[type, default: []].append(product)
    }

    mutating func writeTerms(of offer: StoreKitOffer, indentation: Int) {
        let mode = offer.paymentMode.value
        text.add(indentation, "mode: \(mode.catalogMode.rawValue)", from: offer.paymentMode.range, key: "mode")
        text.add(indentation, "period: \(YAMLScalar.text(offer.subscriptionPeriod.value))", from: offer.subscriptionPeriod.range, key: "period")
        if let count = offer.numberOfPeriods {
            if mode == .payAsYouGo {
                text.add(indentation, "periods: \(count.value)", from: count.range, key: "periods")
            } else if count.value != 1 {
                diagnostics.append(Diagnostic(
                    .error, rule: StoreKitRuleID.unsupported,
                    "`\(offer.path).numberOfPeriods` is \(count.value): a \(mode == .free ? "free trial" : "pay-up-front offer") in a catalog lasts its period once; make the period \(count.value) times as long, or the offer pay as you go",
                    at: count.range))
            }
        }
        if let price = offer.displayPrice {
            if mode != .free {
                text.add(indentation, "price: \(YAMLScalar.quoted(price.value))", from: price.range, key: "price")
            } else if Price(parsing: price.value)?.cents != 0 {
                diagnostics.append(Diagnostic(
                    .error, rule: StoreKitRuleID.unsupported,
                    "`\(offer.path).displayPrice` is \(price.value), but a free trial costs nothing; make it 0, or the offer pay as you go or pay up front",
                    at: price.range))
            }
        }
    }

    mutating func writeLocalizations(of product: StoreKitProduct) {
        text.add(4, "localizations:", from: product.localizationsKey, key: "localizations")
        guard !product.localizations.isEmpty else {
            placeholder(
                "`\(product.path).localizations` is empty, and a catalog product needs one: the catalog has \(FilledValues.locale) with the reference name, '\(product.referenceName.value)', as title and description",
                at: product.localizationsKey)
            text.add(6, "\(FilledValues.locale):", from: product.localizationsKey, key: "localizations", comment: "placeholder: the file has no localization")
            text.add(8, "title: \(YAMLScalar.text(product.referenceName.value))", from: product.localizationsKey, key: "title")
            text.add(8, "description: \(YAMLScalar.text(product.referenceName.value))", from: product.localizationsKey, key: "description")
            return
        }
        for localization in product.localizations {
            let locale = localization.locale.value
            text.add(6, "\(YAMLScalar.text(localization.catalogLocale)):", from: localization.locale.range, key: "localizations")
            let title = FilledValues.title(localization.displayName.value, referenceName: product.referenceName.value)
            if localization.displayName.value.isEmpty {
                placeholder(
                    "the \(locale) display name of `\(product.path)` is empty, and a catalog title cannot be: the catalog has the reference name, '\(title)', in its place",
                    at: localization.displayName.range)
            }
            text.add(8, "title: \(YAMLScalar.text(title))", from: localization.displayName.range, key: "title", comment: localization.displayName.value.isEmpty ? "placeholder: empty in the file" : nil)
            let description = FilledValues.description(localization.description.value, title: title)
            if localization.description.value.isEmpty {
                placeholder(
                    "the \(locale) description of `\(product.path)` is empty, and a catalog description cannot be: the catalog has the title, '\(title)', in its place",
                    at: localization.description.range)
            }
            text.add(8, "description: \(YAMLScalar.text(description))", from: localization.description.range, key: "description", comment: localization.description.value.isEmpty ? "placeholder: empty in the file" : nil)
        }
    }

    mutating func placeholder(_ message: String, at range: SourceRange) {
        placeholders += 1
        diagnostics.append(Diagnostic(
            .warning, rule: StoreKitRuleID.placeholder,
            message + "; write it in the catalog (`export --base` writes it back empty while the catalog keeps the placeholder)", at: range))
    }

    // MARK: Notes on what was filled

    mutating func noteDefaults() {
        for type in ProductType.allCases {
            guard let products = defaulted[type], let first = products.first else { continue }
            let defaults = ImportDefaults.forType(type)
            let noun = type.rawValue.replacingHyphens
            let count = products.count == 1 ? "1 \(noun)" : "\(products.count) \(noun)s"
            let notes = products.count > 1 ? products.map { Diagnostic.Note("`\($0.path)` (\($0.productID.value))", at: $0.range.start) } : []
            diagnostics.append(Diagnostic(
                .note, rule: StoreKitRuleID.filled,
                "\(count) (\(products.map(\.productID.value).joined(separator: ", "))) got the guide's defaults for their type, which a StoreKit configuration file does not hold: delivery \(defaults.delivery), persistence \(defaults.persistence), restore \(defaults.restore); \(defaults.reason); and built-in delivery because \(ImportDefaults.deliveryReason)",
                at: SourceRange(start: first.range.start), notes: notes))
            if type == .nonRenewingSubscription {
                diagnostics.append(Diagnostic(
                    .note, rule: StoreKitRuleID.filled,
                    "\(count) got the duration \(ImportDefaults.duration): \(ImportDefaults.durationReason)",
                    at: SourceRange(start: first.range.start), notes: notes))
            }
        }
    }
}

extension String {
    /// "a consumable", "an auto-renewable subscription".
    var withArticle: String { (first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + self }

    /// `non-consumable` as words: `non consumable` would read badly, so only
    /// the multi-word types change: `auto-renewable-subscription` is
    /// `auto-renewable subscription`.
    var replacingHyphens: String {
        switch self {
        case "auto-renewable-subscription": "auto-renewable subscription"
        case "non-renewing-subscription": "non-renewing subscription"
        default: self
        }
    }
}
