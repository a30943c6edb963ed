import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON

/// Offers of an auto-renewable subscription: the introductory offer, and the
/// promotional, offer-code and win-back offers of `offers` (Xcode's
/// .storekit files have all four). They share the mode, period, periods and
/// price rules.
enum OfferSchema {
    /// How long each mode's offer may last; a pay-as-you-go offer bills at the
    /// subscription's own period (checked on the product).
    static let freeTrialPeriods = ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"]
    static let payUpFrontPeriods = ["P1M", "P2M", "P3M", "P6M", "P1Y"]

    /// The keys and rules every offer has.
    static func offerProperties(extra: [(key: String, value: JSONValue)] = []) -> [(key: String, value: JSONValue)] {
        extra + [
            ("mode", SchemaKeywords.enumeration(OfferMode.self, "How the offer is paid.")),
            ("period", SchemaKeywords.reference("period", "How long the offer lasts (free-trial: P3D, P1W, P2W, P1M, P2M, P3M, P6M or P1Y; pay-up-front: P1M, P2M, P3M, P6M or P1Y), or, pay-as-you-go, the subscription's own period, billed 'periods' times.")),
            ("periods", SchemaKeywords.integer("How many periods a pay-as-you-go offer lasts, 1 to 12 (pay-as-you-go only).", in: 1...12)),
            ("price", SchemaKeywords.reference("price", "The offer's price (pay-as-you-go: per period; pay-up-front: in all); required for both, not for a free trial. `storekeeper validate` warns (offer-price) when it is not lower than the subscription's price over the same time.")),
        ]
    }

    /// What each mode requires and forbids.
    static let modeRules: JSONValue = [
        SchemaKeywords.when(SchemaKeywords.keyEquals("mode", OfferMode.freeTrial.rawValue), then: [
            "properties": [
                "period": periods(freeTrialPeriods, "A free trial lasts \(freeTrialPeriods.joined(separator: ", "))."),
                "periods": false,
                "price": false,
            ],
        ]),
        SchemaKeywords.when(SchemaKeywords.keyEquals("mode", OfferMode.payUpFront.rawValue), then: [
            "required": ["price"],
            "properties": [
                "period": periods(payUpFrontPeriods, "A pay-up-front offer lasts \(payUpFrontPeriods.joined(separator: ", "))."),
                "periods": false,
            ],
        ]),
        SchemaKeywords.when(SchemaKeywords.keyEquals("mode", OfferMode.payAsYouGo.rawValue), then: ["required": ["price"]]),
    ]

    /// `introductory-offer`.
    static let introductoryOffer = SchemaKeywords.closedObject(
        "An introductory offer for new subscribers: {mode, period, periods?, price?}.",
        properties: offerProperties(), required: ["mode", "period"], more: [("allOf", modeRules)])

    /// `offers`: the subscription's promotional, offer-code and win-back offers.
    static let offers = SchemaKeywords.list(
        "The subscription's promotional, offer-code and win-back offers (auto-renewable subscriptions), as in Xcode's StoreKit configuration files: each {id, kind, reference-name, mode, period, periods?, price?}, with mode, period, periods and price as in introductory-offer.",
        of: SchemaKeywords.closedObject(
            "An offer of the subscription.",
            properties: offerProperties(extra: [
                ("id", SchemaKeywords.patterned(
                    "The offer's identifier: 1 to 100 characters of A-Z a-z 0-9 . _ -.",
                    pattern: ValuePatterns.productID,
                    message: "An offer id has 1 to 100 characters, only letters, digits, '.', '_' and '-'.",
                    types: ["string", "number"])),
                ("kind", SchemaKeywords.enumeration(OfferKind.self, "What kind of offer this is.")),
                ("reference-name", [
                    "description": "The offer's name in App Store Connect: at most 64 characters.",
                    "type": ["string", "number"],
                    "minLength": 1,
                    "maxLength": 64,
                ]),
            ]),
            required: ["id", "kind", "reference-name", "mode", "period"],
            more: [("allOf", modeRules)]))

    private static func periods(_ allowed: [String], _ message: String) -> JSONValue {
        [
            "pattern": .string(ValuePatterns.period(equalToAnyOf: allowed)),
            "patternErrorMessage": .string(message),
            "examples": SchemaKeywords.strings(allowed),
        ]
    }
}
