/// The keys of each kind of object in a StoreKit configuration file: those
/// the catalog holds (`carried`), and those it has no place for, with why
/// (`kept`: `export --base` keeps them). Any other key is unknown.
enum StoreKitKeys {
    static let internalID = "Xcode's own id of the item (without --base, export makes one from the product or offer id)"
    static let eligibility = "who may redeem the offer when testing"

    static let rootCarried = ["version", "products", "nonRenewingSubscriptions", "subscriptionGroups"]
    static let rootKept = [
        "identifier": "the file's own id",
        "settings": "the file's test settings (storefront, locale, renewal rate, errors to simulate)",
        "appPolicies": "the EULA and policy texts shown in test purchases",
        "subscriptionOffersKeyPair": "the key that signs promotional offers in tests",
    ]

    static let versionCarried = ["major", "minor"]

    static let productCarried = ["productID", "referenceName", "type", "displayPrice", "familyShareable", "localizations"]
    static let productKept = ["internalID": internalID]

    static let subscriptionCarried = productCarried + [
        "groupNumber", "recurringSubscriptionPeriod", "subscriptionGroupID", "introductoryOffer", "adHocOffers", "codeOffers", "winbackOffers",
    ]
    static let subscriptionKept = [
        "internalID": internalID,
        "billingPlans": "billing plans (a commitment paid monthly, and the like) have no place in the catalog",
        "introductoryOffers": "the introductory offers by billing plan; the catalog holds one introductory offer, the file's `introductoryOffer`",
    ]

    static let introductoryCarried = ["paymentMode", "subscriptionPeriod", "numberOfPeriods", "displayPrice"]
    static let introductoryKept = [
        "internalID": internalID,
        "billingPlanType": "the billing plan the offer is for",
    ]

    static let offerCarried = ["offerID", "referenceName"] + introductoryCarried
    static let offerKept = introductoryKept.merging([
        "isEligible": eligibility, "eligibility": eligibility, "isStackable": eligibility,
    ]) { first, _ in first }

    static let localizationCarried = ["locale", "displayName", "description"]

    static let groupCarried = ["name", "localizations", "subscriptions"]
    static let groupKept = ["id": "Xcode's own id of the group (without --base, export makes one from the group's key)"]
    static let groupLocalizationCarried = ["locale", "displayName"]
    static let groupLocalizationKept = ["description": "the custom app name shown with the group in the App Store"]
    static let familySharing = "family sharing applies only to non-consumables and auto-renewable subscriptions"
}
