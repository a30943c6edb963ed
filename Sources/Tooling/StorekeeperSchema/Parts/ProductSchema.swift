import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON

/// One entry of `products`: the keys every product has, the keys that only
/// some types take, and what each type requires.
enum ProductSchema {
    /// The keys that only some product types take; on any other type the
    /// CLI reports the key as `not-applicable`.
    static let typeOnlyKeys: [(key: String, types: [ProductType])] = [
        ("family-shareable", [.nonConsumable, .autoRenewableSubscription]),
        ("max-quantity", [.consumable]),
        ("group", [.autoRenewableSubscription]),
        ("level", [.autoRenewableSubscription]),
        ("period", [.autoRenewableSubscription]),
        ("introductory-offer", [.autoRenewableSubscription]),
        ("offers", [.autoRenewableSubscription]),
        ("duration", [.nonRenewingSubscription]),
    ]

    /// What a type requires besides the keys every product has.
    static func requiredKeys(of type: ProductType) -> [String] {
        switch type {
        case .autoRenewableSubscription: ["group", "period"]
        case .nonRenewingSubscription: ["duration"]
        case .consumable, .nonConsumable: []
        }
    }

    static let definition: JSONValue = SchemaKeywords.closedObject(
        "A product: one in-app purchase as App Store Connect lists it, with how it is delivered, where its purchase is recorded and how it is restored.",
        properties: [
            ("id", SchemaKeywords.reference("product-id", "The product's id in App Store Connect and StoreKit (required): 1 to 100 characters of A-Z a-z 0-9 . _ -, unique across the catalog and its fragments.")),
            ("type", SchemaKeywords.enumeration(ProductType.self, "The kind of product. Some keys apply only to some types: max-quantity to consumables; family-shareable to non-consumables and auto-renewable subscriptions; group, level, period, introductory-offer and offers to auto-renewable subscriptions; duration to non-renewing subscriptions.")),
            ("reference-name", [
                "description": "The name App Store Connect shows you (not customers): at most 64 characters, unique across the catalog and its fragments.",
                "type": ["string", "number"],
                "minLength": 1,
                "maxLength": 64,
            ]),
            ("price", SchemaKeywords.reference("price", "The product's price (required): a decimal with at most two places, 0 to 1,000,000, like \"0.99\"; quoted or not.")),
            ("localizations", localizations),
            ("family-shareable", [
                "description": "Whether Family Sharing shares the purchase with the family (non-consumables and auto-renewable subscriptions only). Default false, or the value under defaults.",
                "type": "boolean",
                "default": false,
            ]),
            ("max-quantity", SchemaKeywords.integer("How many one payment may buy, 1 to 10 (consumables only). Default 1.", in: 1...10, default: 1)),
            ("delivery", SchemaKeywords.reference("delivery", "Who delivers what the purchase buys: built-in or server, or a mapping with unlocks, grants and content. Required, unless defaults sets it.")),
            ("persistence", SchemaKeywords.reference("persistence", "Where the record of the purchase is kept: a strategy, or {strategy, record}. Required, unless defaults sets it.")),
            ("restore", SchemaKeywords.reference("restore", "How the purchase is restored: a policy, or {policy, trigger, selection}. Required, unless defaults sets it.")),
            ("group", SchemaKeywords.reference("name", "The subscription group (auto-renewable subscriptions, required): a group declared under 'groups' in the catalog or a fragment. A user subscribes to one product of a group at a time.")),
            ("level", SchemaKeywords.integer("The subscription's level in its group, 1 to 100 (auto-renewable subscriptions). 1 is the highest level of service. Default 1.", in: 1...100, default: 1)),
            ("period", SchemaKeywords.enumeration(SubscriptionPeriod.self, "How often the subscription renews (auto-renewable subscriptions, required).")),
            ("introductory-offer", SchemaKeywords.reference("offer", "An introductory offer for new subscribers (auto-renewable subscriptions): {mode, period, periods?, price?}.")),
            ("offers", OfferSchema.offers),
            ("duration", SchemaKeywords.reference("period", "How long the subscription lasts (non-renewing subscriptions, required): an ISO 8601 period such as P3M or P1Y.")),
        ],
        required: ["id", "type", "reference-name", "price", "localizations"],
        more: [("allOf", .array(ProductType.allCases.map(rulesOfType) + SubscriptionPeriod.allCases.map(payAsYouGoPeriod)))])

    /// Locale -> {title, description}: what the App Store shows.
    static let localizations: JSONValue = [
        "description": "What the App Store shows, by locale: locale -> {title, description}. At least one. A title of 2 to 30 characters and a description of at most 45 are what the App Store shows ('storekeeper validate' warns otherwise).",
        "type": "object",
        "minProperties": 1,
        "propertyNames": SchemaKeywords.reference("locale"),
        "additionalProperties": SchemaKeywords.closedObject(
            "The product's name and description in one locale.",
            properties: [
                ("title", SchemaKeywords.reference("text", "The product's name in this locale: 2 to 30 characters.")),
                ("description", SchemaKeywords.reference("text", "The product's description in this locale: at most 45 characters.")),
            ],
            required: ["title", "description"]),
    ]

    /// What one type requires and forbids.
    static func rulesOfType(_ type: ProductType) -> JSONValue {
        var consequence: [(key: String, value: JSONValue)] = []
        let required = requiredKeys(of: type)
        if !required.isEmpty { consequence.append(("required", SchemaKeywords.strings(required))) }
        var forbidden = typeOnlyKeys.filter { !$0.types.contains(type) }.map { (key: $0.key, value: JSONValue.bool(false)) }
        if type != .consumable {
            // Only consumables add to balances.
            forbidden.append(("delivery", ["properties": ["grants": false]]))
        }
        consequence.append(("properties", .object(forbidden)))
        return SchemaKeywords.when(SchemaKeywords.keyEquals("type", type.rawValue), then: .object(consequence))
    }

    /// A pay-as-you-go offer bills at the subscription's own period.
    static func payAsYouGoPeriod(_ period: SubscriptionPeriod) -> JSONValue {
        let offerPeriod = SchemaKeywords.when(
            SchemaKeywords.keyEquals("mode", OfferMode.payAsYouGo.rawValue),
            then: ["properties": ["period": [
                "pattern": .string(ValuePatterns.period(equalToAnyOf: [period.rawValue])),
                "patternErrorMessage": .string("A pay-as-you-go offer bills every period of the subscription: \(period.rawValue) here."),
            ]]])
        return SchemaKeywords.when(
            SchemaKeywords.keyEquals("period", period.rawValue),
            then: ["properties": ["introductory-offer": offerPeriod, "offers": ["items": offerPeriod]]])
    }
}
