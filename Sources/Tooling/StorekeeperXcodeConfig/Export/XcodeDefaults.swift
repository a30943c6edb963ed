/// What Xcode 16 writes in a new StoreKit configuration file for what a
/// catalog has no say in: the test settings and the app policies. Taken from
/// files Xcode 16 wrote (RevenueCat's `gl-test-app.storekit` and the
/// RevenueCat unit-test fixture, whose settings are these exactly).
enum XcodeDefaults {
    static let settings: StoreKitValue = .object([
        "_askToBuyEnabled": .bool(false),
        "_billingGracePeriodEnabled": .bool(false),
        "_billingIssuesEnabled": .bool(false),
        "_disableDialogs": .bool(false),
        "_failTransactionsEnabled": .bool(false),
        "_locale": .string("en_US"),
        "_renewalBillingIssuesEnabled": .bool(false),
        "_storefront": .string("USA"),
        "_storeKitErrors": .array([]),
        "_timeRate": .integer(0),
    ])

    static let appPolicies: StoreKitValue = .object([
        "eula": .string(""),
        "policies": .array([.object(["locale": .string("en_US"), "policyText": .string(""), "policyURL": .string("")])]),
    ])

    /// The billing plan type 5.0 gives a subscription billed once per period.
    static let billedUpFront = "BILLED_UPFRONT"
}
