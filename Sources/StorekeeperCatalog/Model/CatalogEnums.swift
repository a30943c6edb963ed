import StorekeeperYAML

/// A catalog enumeration spelled in kebab-case in YAML.
///
/// Conforming types get their YAML spelling from `rawValue` and their list of
/// valid spellings (for "did you mean" suggestions) from `allCases`.
public protocol CatalogEnum: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {
    /// The spellings, for matching a YAML value without making a `String`.
    static var spellings: YAMLKeyTable<Self> { get }
}

/// The four kinds of in-app purchase product.
public enum ProductType: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<ProductType>()

    /// Used up and bought again (coins, hints); not restored.
    case consumable
    /// Bought once, kept forever, restorable.
    case nonConsumable = "non-consumable"
    /// Renews every period until cancelled; part of a subscription group.
    case autoRenewableSubscription = "auto-renewable-subscription"
    /// Lasts a fixed duration; the app tracks expiry and restoring.
    case nonRenewingSubscription = "non-renewing-subscription"
}

/// A platform an app runs on.
public enum Platform: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<Platform>()

    /// iPhone and iPad.
    case ios
    /// Mac.
    case macos
    /// Apple TV.
    case tvos
    /// Apple Watch.
    case watchos
    /// Apple Vision Pro.
    case visionos
}

/// How the app identifies the user to its server.
public enum ServerIdentity: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<ServerIdentity>()

    /// The user signs in to an account (works across devices).
    case account
    /// A device identifier (cannot restore on another device).
    case device
}

/// Who delivers what a purchase buys.
public enum DeliveryModel: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<DeliveryModel>()

    /// Everything ships in the app (or is Apple-hosted); the purchase unlocks it.
    case builtIn = "built-in"
    /// The app's server delivers it, after validating the receipt.
    case server
}

/// Where a product's associated content comes from.
public enum ContentSource: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<ContentSource>()

    /// Shipped inside the app bundle.
    case bundle
    /// Hosted by Apple and downloaded through StoreKit.
    case appleHosted = "apple-hosted"
    /// Downloaded from the app's own server.
    case server
}

/// Where downloaded content is kept on the device.
public enum ContentStorage: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<ContentStorage>()

    /// The caches folder: may be purged, then downloaded again.
    case cache
    /// The documents folder, excluded from backups: kept.
    case documents
}

/// Where the record of a purchase is kept.
public enum PersistenceStrategy: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<PersistenceStrategy>()

    /// The app receipt is the record.
    case receipt
    /// The user defaults system.
    case userDefaults = "user-defaults"
    /// iCloud's key-value store, synced across devices.
    case icloud
    /// The app's server, keyed by the user's account.
    case server
    /// The app's own preserved state (for consumables).
    case appState = "app-state"
}

/// What a user-defaults or iCloud record holds.
public enum RecordKind: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<RecordKind>()

    /// A boolean or a number.
    case flag
    /// A copy of the transaction's receipt, which resists tampering.
    case receipt
}

/// How purchases are restored.
public enum RestorePolicy: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<RestorePolicy>()

    /// Refresh the receipt and deliver what it lists; no new transactions.
    case receiptRefresh = "receipt-refresh"
    /// Replay completed transactions (needed to download Apple-hosted content again).
    case restoreTransactions = "restore-transactions"
    /// Ask the app's server.
    case server
    /// Read iCloud's synced record.
    case icloud
    /// Not restored.
    case none
}

/// What starts a restore.
public enum RestoreTrigger: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<RestoreTrigger>()

    /// A Restore Purchases button.
    case user
    /// Every launch (prompts for credentials; discouraged).
    case launch
}

/// Which content a restore downloads again.
public enum RestoreSelection: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<RestoreSelection>()

    /// Everything.
    case all
    /// What the user chooses.
    case user
}

/// The billing period of an auto-renewable subscription.
public enum SubscriptionPeriod: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<SubscriptionPeriod>()

    /// One week.
    case oneWeek = "P1W"
    /// One month.
    case oneMonth = "P1M"
    /// Two months.
    case twoMonths = "P2M"
    /// Three months.
    case threeMonths = "P3M"
    /// Six months.
    case sixMonths = "P6M"
    /// One year.
    case oneYear = "P1Y"
}

/// How an introductory offer is paid.
public enum OfferMode: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<OfferMode>()

    /// Nothing for the offer's period.
    case freeTrial = "free-trial"
    /// A reduced price for each of several periods.
    case payAsYouGo = "pay-as-you-go"
    /// One reduced price for the offer's period.
    case payUpFront = "pay-up-front"
}

/// The state a transaction is reported in.
public enum TransactionState: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<TransactionState>()

    /// Being processed by the store.
    case purchasing
    /// Waiting for an outside action such as Ask to Buy.
    case deferred
    /// Paid: deliver, then finish.
    case purchased
    /// Did not go through.
    case failed
    /// Replayed by a restore.
    case restored
}

/// The store's reasons for a failed transaction.
public enum StoreErrorCode: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<StoreErrorCode>()

    /// An error the store could not name.
    case unknown
    /// The client may not make the request.
    case clientInvalid = "client-invalid"
    /// The user cancelled.
    case paymentCancelled = "payment-cancelled"
    /// A payment parameter was not recognised.
    case paymentInvalid = "payment-invalid"
    /// The device may not make payments.
    case paymentNotAllowed = "payment-not-allowed"
    /// The product is not available in the current storefront.
    case productNotAvailable = "product-not-available"
    /// The network failed.
    case networkError = "network-error"
    /// The user has not allowed access to cloud service information.
    case cloudServicePermissionDenied = "cloud-service-permission-denied"
    /// The device could not connect to the network for a cloud service.
    case cloudServiceNetworkConnectionFailed = "cloud-service-network-connection-failed"
    /// The user revoked permission to use the cloud service.
    case cloudServiceRevoked = "cloud-service-revoked"
}

/// The kinds of subscription offer besides the introductory one: how a
/// subscriber comes to be offered it.
public enum OfferKind: String, CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<OfferKind>()

    /// An offer the app presents to subscribers it chooses, signed by the
    /// app's server (App Store Connect's promotional offers; `adHocOffers`
    /// in a StoreKit configuration file).
    case promotional
    /// An offer redeemed with a code (`codeOffers` in a StoreKit configuration file).
    case offerCode = "offer-code"
    /// An offer to subscribers who have left, to bring them back (`winbackOffers`).
    case winBack = "win-back"
}
