/// A small catalog for the model's tests and for random lives (the server's driver compiles it too): every
/// product type, one subscription group with two levels and two durations, family-shareable products, a
/// consumable that grants a balance and a non-renewing pass with a duration.
public enum StoreModelCatalog {
    /// The bundle id of ``yaml``.
    public static let bundleID = "com.example.storemodel"
    /// A consumable granting 100 ``coins`` per unit, up to 10 at once.
    public static let coins = "com.example.storemodel.coins"
    /// A family-shareable non-consumable unlocking `pro`.
    public static let pro = "com.example.storemodel.pro"
    /// A non-consumable (not shareable) unlocking `theme`.
    public static let theme = "com.example.storemodel.theme"
    /// Group `membership`, level 2, monthly, unlocking `plus`.
    public static let plusMonthly = "com.example.storemodel.plus.monthly"
    /// Group `membership`, level 2, yearly, unlocking `plus`.
    public static let plusYearly = "com.example.storemodel.plus.yearly"
    /// Group `membership`, level 1 (the highest), monthly, family-shareable, unlocking `plus` and `premium`.
    public static let premiumMonthly = "com.example.storemodel.premium.monthly"
    /// Group `membership`, level 1, yearly, family-shareable, unlocking `plus` and `premium`.
    public static let premiumYearly = "com.example.storemodel.premium.yearly"
    /// A non-renewing subscription of one month (`P1M`), unlocking `season`.
    public static let seasonPass = "com.example.storemodel.season.pass"
    /// The balance ``coins`` grants.
    public static let coinsBalance = "coins"
    /// The subscription group.
    public static let group = "membership"

    /// The catalog, for `PolicyLoader` (write it to a `.yaml` file) or the compiler.
    public static let yaml = """
        catalog: store-model
        format: 1
        app: {bundle-id: \(bundleID)}
        features: [pro, theme, plus, premium, season]
        balances: [\(coinsBalance)]
        server: {url: "https://store-model.example.com", identity: account}
        groups:
          \(group): {name: Membership}
        defaults:
          persistence: server
          restore: server
        products:
          - id: \(coins)
            type: consumable
            reference-name: Coins
            price: "0.99"
            max-quantity: 10
            restore: none
            localizations: {en-US: {title: Coins, description: 100 coins}}
            delivery: {model: server, grants: {\(coinsBalance): 100}}
          - id: \(pro)
            type: non-consumable
            reference-name: Pro
            price: "4.99"
            family-shareable: true
            localizations: {en-US: {title: Pro, description: Pro tools}}
            delivery: {model: server, unlocks: [pro]}
          - id: \(theme)
            type: non-consumable
            reference-name: Theme
            price: "1.99"
            localizations: {en-US: {title: Theme, description: A theme}}
            delivery: {model: server, unlocks: [theme]}
          - id: \(plusMonthly)
            type: auto-renewable-subscription
            reference-name: Plus Monthly
            price: "2.99"
            group: \(group)
            level: 2
            period: P1M
            localizations: {en-US: {title: Plus, description: Plus monthly}}
            delivery: {model: server, unlocks: [plus]}
          - id: \(plusYearly)
            type: auto-renewable-subscription
            reference-name: Plus Yearly
            price: "29.99"
            group: \(group)
            level: 2
            period: P1Y
            localizations: {en-US: {title: Plus, description: Plus yearly}}
            delivery: {model: server, unlocks: [plus]}
          - id: \(premiumMonthly)
            type: auto-renewable-subscription
            reference-name: Premium Monthly
            price: "5.99"
            group: \(group)
            level: 1
            period: P1M
            family-shareable: true
            localizations: {en-US: {title: Premium, description: Premium monthly}}
            delivery: {model: server, unlocks: [plus, premium]}
          - id: \(premiumYearly)
            type: auto-renewable-subscription
            reference-name: Premium Yearly
            price: "59.99"
            group: \(group)
            level: 1
            period: P1Y
            family-shareable: true
            localizations: {en-US: {title: Premium, description: Premium yearly}}
            delivery: {model: server, unlocks: [plus, premium]}
          - id: \(seasonPass)
            type: non-renewing-subscription
            reference-name: Season Pass
            price: "3.99"
            duration: P1M
            localizations: {en-US: {title: Season Pass, description: One month of season events}}
            delivery: {model: server, unlocks: [season]}

        """
}
