import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML

/// What decoding one product mapping gives: the product when it is complete
/// and valid, and its id and reference name in any case, so that uniqueness
/// is checked even for products with other errors.
struct DecodedProduct {
    var product: Product?
    var id: Located<String>?
    var referenceName: Located<String>?
}

/// A product as its own mapping describes it, before the catalog's defaults
/// fill what it leaves out: all a streamed product keeps of its nodes.
struct ProductDraft: Sendable {
    var id: Located<String>?
    var type: Located<ProductType>?
    var referenceName: Located<String>?
    var price: Located<Price>?
    var localizations: [Localization]?
    var familyShareable: Located<Bool>?
    var maxQuantity: Located<Int>?
    var delivery: Delivery?
    var persistence: Persistence?
    var restore: Restore?
    var subscription: Subscription?
    var duration: Located<ISOPeriod>?
    /// Whether the mapping wrote `delivery`, `persistence` and `restore`.
    var written = (delivery: false, persistence: false, restore: false)
    /// Defaultable keys that an unknown key in the mapping misspells.
    var misspelt: Set<String> = []
    /// The product mapping.
    var range: SourceRange
    /// What its `<<` keys brought in, to note on the problems found there.
    var merged = MergedPairs()
    /// No error so far, and every written field decoded.
    var isValid = false
}

/// Decodes one entry of `products`.
enum ProductDecoder {
    enum Key: String, CaseIterable, Sendable {
        case id, type, referenceName = "reference-name", price, localizations, familyShareable = "family-shareable"
        case maxQuantity = "max-quantity", delivery, persistence, restore, group, level, period
        case introductoryOffer = "introductory-offer", offers, duration
    }
    enum LocalizationKey: String, CaseIterable, Sendable { case title, description }
    static let keys = YAMLKeyTable<Key>()
    static let localizationKeys = YAMLKeyTable<LocalizationKey>()

    /// Fields that apply only to some types: the types, and how to name them.
    static let applicability: [(key: Key, types: [ProductType], described: String)] = [
        (.familyShareable, [.nonConsumable, .autoRenewableSubscription], "non-consumables and auto-renewable subscriptions"),
        (.maxQuantity, [.consumable], "consumables"),
        (.group, [.autoRenewableSubscription], "auto-renewable subscriptions"),
        (.level, [.autoRenewableSubscription], "auto-renewable subscriptions"),
        (.period, [.autoRenewableSubscription], "auto-renewable subscriptions"),
        (.introductoryOffer, [.autoRenewableSubscription], "auto-renewable subscriptions"),
        (.offers, [.autoRenewableSubscription], "auto-renewable subscriptions"),
        (.duration, [.nonRenewingSubscription], "non-renewing subscriptions"),
    ]
    /// A key and its value, as written.
    private struct Field {
        var key: YAMLNode
        var value: YAMLNode
    }

    /// Decodes a product mapping completely, with the catalog's defaults.
    static func decode(
        _ node: YAMLNode, defaults: Defaults, context: inout YAMLDecodingContext, references: inout [ReferenceUse]
    ) -> DecodedProduct {
        guard let draft = draft(node, context: &context, references: &references) else { return DecodedProduct() }
        return complete(draft, defaults: defaults, context: &context)
    }

    /// Decodes everything a product mapping says by itself: all but the
    /// values it leaves to `defaults`, which may not have been read yet when
    /// products are decoded while their file is still being parsed. Nil when
    /// the entry is not a mapping (reported).
    static func draft(_ node: YAMLNode, context: inout YAMLDecodingContext, references: inout [ReferenceUse]) -> ProductDraft? {
        guard context.expectMapping(node, "a product") else { return nil }
        // Any error reported while decoding this product keeps it out of the model.
        let errorsBefore = context.diagnostics.errorCount, placeholdersBefore = context.placeholdersMet
        let diagnosticsBefore = context.diagnostics.count
        var id, type, referenceName, price, localizations, familyShareable, maxQuantity: Field?
        var delivery, persistence, restore, group, level, period, offer, offers, duration: Field?
        for pair in node.pairs {
            let field = Field(key: pair.key, value: pair.value)
            switch pair.key.key(in: keys) {
            case .id?: id = field
            case .type?: type = field
            case .referenceName?: referenceName = field
            case .price?: price = field
            case .localizations?: localizations = field
            case .familyShareable?: familyShareable = field
            case .maxQuantity?: maxQuantity = field
            case .delivery?: delivery = field
            case .persistence?: persistence = field
            case .restore?: restore = field
            case .group?: group = field
            case .level?: level = field
            case .period?: period = field
            case .introductoryOffer?: offer = field
            case .offers?: offers = field
            case .duration?: duration = field
            case nil: context.unknownKey(pair.key, value: pair.value, in: "a product", known: keys.names)
            }
        }

        var complete = true
        func required<T>(_ field: Field?, _ key: String, example: String, _ read: (YAMLNode) -> T?) -> T? {
            guard let field else {
                context.missing(key, in: node, of: "this product", example: example)
                complete = false
                return nil
            }
            let value = read(field.value)
            if value == nil { complete = false }
            return value
        }
        func optional<T>(_ field: Field?, _ read: (YAMLNode) -> T?) -> T? {
            guard let field else { return nil }
            let value = read(field.value)
            if value == nil { complete = false }
            return value
        }

        let idValue = required(id, "id", example: "com.example.app.product") { decodeID($0, context: &context) }
        let typeValue = required(type, "type", example: "non-consumable") { context.enumeration($0, "product type", as: ProductType.self) }
        let referenceNameValue = required(referenceName, "reference-name", example: "Rocket Car") { decodeReferenceName($0, context: &context) }
        let priceValue = required(price, "price", example: "\"0.99\"") { decodePrice($0, context: &context) }
        let localizationsValue = required(localizations, "localizations", example: "{en-US: {title: ..., description: ...}}") {
            decodeLocalizations($0, context: &context)
        }

        // Fields that belong to other types are reported at their key, whatever their value.
        if let productType = typeValue?.value {
            for rule in applicability where !rule.types.contains(productType) {
                let field: Field?
                switch rule.key {
                case .familyShareable: field = familyShareable
                case .maxQuantity: field = maxQuantity
                case .group: field = group
                case .level: field = level
                case .period: field = period
                case .introductoryOffer: field = offer
                case .offers: field = offers
                case .duration: field = duration
                default: field = nil
                }
                guard let field else { continue }
                let key = rule.key.rawValue
                var message = "'\(key)' applies only to \(rule.described); this product is \(productType.rawValue), so remove it"
                if rule.key == .period, productType == .nonRenewingSubscription {
                    message += " (a non-renewing subscription lasts a `duration`)"
                } else if rule.key == .duration, productType == .autoRenewableSubscription {
                    message += " (an auto-renewable subscription renews every `period`)"
                }
                context.error(CatalogRuleID.notApplicable, message, at: field.key)
                complete = false
            }
        }

        let familyShareableValue = optional(familyShareable) { context.bool($0, "'family-shareable'") }
        let maxQuantityValue = optional(maxQuantity) { context.integer($0, "'max-quantity'", in: 1...10) }
        let deliveryValue = optional(delivery) { DeliveryDecoder.decode($0, context: &context, references: &references) }
        let persistenceValue = optional(persistence) { PersistenceDecoder.decodePersistence($0, context: &context) }
        let restoreValue = optional(restore) { PersistenceDecoder.decodeRestore($0, context: &context) }
        var misspelt: Set<String> = []
        for key in ["delivery", "persistence", "restore"] where context.hasTypo(of: key, in: node.range) {
            misspelt.insert(key)
        }
        var subscription: Subscription?
        var durationValue: Located<ISOPeriod>?

        switch typeValue?.value {
        case .autoRenewableSubscription:
            let groupName = required(group, "group", example: "pro") { decodeSymbol($0, kind: "group", context: &context) }
            if let groupName { references.append(ReferenceUse(kind: .group, name: groupName)) }
            let levelValue = optional(level) { context.integer($0, "'level'", in: 1...100) }
            let periodValue = required(period, "period", example: "P1M") { context.enumeration($0, "subscription period", as: SubscriptionPeriod.self) }
            let regular = OfferDecoder.Regular(period: periodValue, price: priceValue)
            let offerValue = optional(offer) { OfferDecoder.decodeIntroductory($0, regular: regular, context: &context) }
            let offersValue = optional(offers) { OfferDecoder.decodeOffers($0, regular: regular, context: &context) }
            if let groupName, let periodValue {
                subscription = Subscription(
                    group: groupName, level: levelValue, period: periodValue, introductoryOffer: offerValue, offers: offersValue ?? [])
            }
        case .nonRenewingSubscription:
            durationValue = required(duration, "duration", example: "P3M") { decodePeriod($0, "'duration'", context: &context) }
        default:
            break
        }
        let merged = MergedPairs(node)
        merged.note(&context.diagnostics, from: diagnosticsBefore)
        return ProductDraft(
            id: idValue, type: typeValue, referenceName: referenceNameValue, price: priceValue,
            localizations: localizationsValue, familyShareable: familyShareableValue, maxQuantity: maxQuantityValue,
            delivery: deliveryValue, persistence: persistenceValue, restore: restoreValue,
            subscription: subscription, duration: durationValue,
            written: (delivery != nil, persistence != nil, restore != nil), misspelt: misspelt, range: node.range, merged: merged,
            isValid: complete && context.diagnostics.errorCount == errorsBefore && context.placeholdersMet == placeholdersBefore)
    }

    /// Finishes a draft with the catalog's defaults: inherits what the
    /// product left out, reports what is still missing, and builds the product.
    static func complete(_ draft: consuming ProductDraft, defaults: Defaults, context: inout YAMLDecodingContext) -> DecodedProduct {
        let merged = draft.merged, diagnosticsBefore = context.diagnostics.count
        defer { merged.note(&context.diagnostics, from: diagnosticsBefore) }
        var valid = draft.isValid
        // Read before the local function below: a captured `draft` would be boxed and copied.
        let misspelt = draft.misspelt, range = draft.range
        func fromDefaults<T: InheritableSetting>(_ fallback: T?, key: String, example: String) -> T? {
            if var fallback {
                fallback.isInherited = true
                return fallback
            }
            valid = false
            // A broken default, or a misspelt key, was reported already.
            if defaults.written.contains(key) || misspelt.contains(key) { return nil }
            context.diagnostics.append(Diagnostic(
                .error, rule: CatalogRuleID.missingKey,
                "this product is missing '\(key)'; add `\(key): \(example)`, or set it for every product under `defaults`",
                at: range))
            return nil
        }
        let delivery = draft.written.delivery ? draft.delivery : fromDefaults(defaults.delivery, key: "delivery", example: "built-in")
        let persistence = draft.written.persistence ? draft.persistence : fromDefaults(defaults.persistence, key: "persistence", example: "receipt")
        let restore = draft.written.restore ? draft.restore : fromDefaults(defaults.restore, key: "restore", example: "receipt-refresh")
        if let delivery, let productType = draft.type?.value, productType != .consumable, let first = delivery.grants.first {
            let note = delivery.isInherited ? [Diagnostic.Note("the product that inherits it is here", at: draft.range.start)] : []
            context.diagnostics.append(Diagnostic(
                .error, rule: CatalogRuleID.notApplicable,
                "'grants' applies only to consumables, which add to a balance; this product is \(productType.rawValue): use `unlocks` for what it makes available",
                at: first.balance.range, notes: note))
            valid = false
        }
        guard valid, let id = draft.id, let type = draft.type, let name = draft.referenceName, let price = draft.price,
              let localizations = draft.localizations, let delivery, let persistence, let restore
        else {
            return DecodedProduct(product: nil, id: draft.id, referenceName: draft.referenceName)
        }
        // A family-sharing default applies only to the types that can be shared.
        var family = draft.familyShareable
        if family == nil, type.value == .nonConsumable || type.value == .autoRenewableSubscription {
            family = defaults.familyShareable
        }
        return DecodedProduct(
            product: Product(
                id: id, type: type, referenceName: name, price: price,
                localizations: localizations, familyShareable: family, maxQuantity: draft.maxQuantity,
                delivery: delivery, persistence: persistence, restore: restore,
                subscription: draft.subscription, duration: draft.duration, location: range.start),
            id: id, referenceName: name)
    }

    static func decodeID(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<String>? {
        guard let id = context.string(node, "'id'", example: "com.example.app.product") else { return nil }
        if let problem = NamePatterns.productID(id.value) {
            context.error(CatalogRuleID.invalidName, "the product id '\(id.value)' \(problem)", at: node)
            return nil
        }
        return id
    }

    static func decodeReferenceName(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<String>? {
        guard let name = context.string(node, "'reference-name'", example: "Rocket Car", nonEmpty: true) else { return nil }
        // Most names are short: count characters only when the bytes could exceed the limit.
        if name.value.utf8.count > 64, case let count = name.value.count, count > 64 {
            context.error(CatalogRuleID.outOfRange, "the reference name is \(count) characters long; App Store Connect allows at most 64", at: node)
            return nil
        }
        return name
    }

    static func decodePrice(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<Price>? {
        guard let text = context.text(node, "'price'", example: "\"0.99\"") else { return nil }
        if let price = Price(parsing: text) { return Located(price, at: node.range) }
        let message: String
        if let cents = wholePrice(text), cents > 100_000_000 {
            message = "a price is at most 1,000,000, not \(text)"
        } else if text.hasPrefix("-") {
            message = "a price is 0 or more, not \(text)"
        } else if text.contains(",") {
            message = "'\(text)' is not a price; write it with a '.' and no separators, like \"1299.99\""
        } else {
            message = "'\(text)' is not a price; write a decimal with at most two places, like \"0.99\" or \"4\""
        }
        context.error(CatalogRuleID.invalidPrice, message, at: node)
        return nil
    }

    /// Whether the text is a well-formed price too large to accept (in cents).
    private static func wholePrice(_ text: String) -> Int? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = ScalarReading.smallWholeNumber(String(parts[0])) else { return nil }
        if parts.count == 2 {
            guard (1...2).contains(parts[1].count), let fraction = ScalarReading.smallWholeNumber(String(parts[1])) else { return nil }
            return whole * 100 + (parts[1].count == 1 ? fraction * 10 : fraction)
        }
        return whole * 100
    }

    static func decodeLocalizations(_ node: YAMLNode, context: inout YAMLDecodingContext) -> [Localization]? {
        guard context.expectMapping(node, "'localizations'") else { return nil }
        if node.pairs.isEmpty {
            context.error(CatalogRuleID.missingKey, "'localizations' is empty; add at least one, like `en-US: {title: Rocket Car, description: Fly over the traffic}`", at: node)
            return nil
        }
        var result: [Localization] = []
        result.reserveCapacity(node.pairs.count)
        var ok = true
        for pair in node.pairs {
            guard let locale = decodeLocale(pair.key, context: &context), context.expectMapping(pair.value, "the '\(pair.key.text ?? "")' localization") else {
                ok = false
                continue
            }
            var title: Located<String>?
            var description: Located<String>?
            var sawTitle = false, sawDescription = false
            for field in pair.value.pairs {
                switch field.key.key(in: localizationKeys) {
                case .title?:
                    sawTitle = true
                    title = context.string(field.value, "'title'", example: "Rocket Car", nonEmpty: true)
                case .description?:
                    sawDescription = true
                    description = context.string(field.value, "'description'", example: "Fly over the traffic", nonEmpty: true)
                case nil:
                    context.unknownKey(field.key, value: field.value, in: "a localization", known: localizationKeys.names)
                }
            }
            if !sawTitle { context.missing("title", in: pair.value, of: "the '\(locale.value)' localization", example: "Rocket Car") }
            if !sawDescription { context.missing("description", in: pair.value, of: "the '\(locale.value)' localization", example: "Fly over the traffic") }
            guard let title, let description else {
                ok = false
                continue
            }
            result.append(Localization(locale: locale, title: title, description: description))
        }
        return ok ? result : nil
    }

    static func decodeLocale(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<String>? {
        guard let locale = context.string(node, "a locale", example: "en-US") else { return nil }
        if let problem = NamePatterns.locale(locale.value) {
            context.error(CatalogRuleID.invalidLocale, "'\(locale.value)' \(problem)", at: node)
            return nil
        }
        return locale
    }

    static func decodeSymbol(_ node: YAMLNode, kind: String, context: inout YAMLDecodingContext) -> Located<String>? {
        guard let name = context.string(node, "a \(kind) name", example: "pro") else { return nil }
        if let problem = NamePatterns.symbol(name.value, kind: kind) {
            context.error(CatalogRuleID.invalidName, "the \(kind) name '\(name.value)' \(problem)", at: node)
            return nil
        }
        return name
    }

    static func decodePeriod(_ node: YAMLNode, _ what: String, context: inout YAMLDecodingContext) -> Located<ISOPeriod>? {
        guard let text = context.text(node, what, example: "P3M") else { return nil }
        switch ISOPeriod.parse(text) {
        case .success(let period):
            return Located(period, at: node.range)
        case .failure(.hasTime):
            context.error(CatalogRuleID.invalidPeriod, "\(what) '\(text)' has a time part; purchases last whole days, weeks, months or years, like P3M", at: node)
        case .failure(.zero):
            context.error(CatalogRuleID.invalidPeriod, "\(what) '\(text)' is zero long; write a period such as P3M", at: node)
        case .failure(.malformed):
            context.error(CatalogRuleID.invalidPeriod, "\(what) '\(text)' is not an ISO 8601 period; write P, a number and a unit (Y, M, W or D), like P3M or P1Y", at: node)
        }
        return nil
    }
}

/// A product setting that `defaults` can supply.
protocol InheritableSetting {
    var isInherited: Bool { get set }
}

extension Delivery: InheritableSetting {}
extension Persistence: InheritableSetting {}
extension Restore: InheritableSetting {}
