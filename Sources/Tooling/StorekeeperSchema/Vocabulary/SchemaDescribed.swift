import StorekeeperCatalog
import StorekeeperCore
import StorekeeperPolicy

/// A value of the catalog's vocabulary with the sentence an editor shows for
/// it (in completion lists and on hover).
///
/// Each conformance switches over every case, so a case added to the
/// catalog's enumerations without a description here does not compile: the
/// schema cannot fall behind the decoder's vocabulary.
protocol SchemaDescribed: CaseIterable {
    /// What the value means, in one or two plain sentences.
    var schemaDescription: String { get }
    /// The spelling written in a catalog.
    var spelling: String { get }
}

extension SchemaDescribed where Self: RawRepresentable, RawValue == String {
    var spelling: String { rawValue }
}

extension ProductType: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .consumable: "Used up and bought again (coins, hints, boosts); never restored. May be bought several at a time (max-quantity)."
        case .nonConsumable: "Bought once and kept forever; restored on every device of the account."
        case .autoRenewableSubscription: "Renews every period until cancelled; belongs to a subscription group, at a level."
        case .nonRenewingSubscription: "Lasts a fixed duration and does not renew; the app tracks its expiry and restores it."
        }
    }
}

extension Platform: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .ios: "iPhone and iPad."
        case .macos: "Mac."
        case .tvos: "Apple TV."
        case .watchos: "Apple Watch."
        case .visionos: "Apple Vision Pro."
        }
    }
}

extension ServerIdentity: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .account: "The user signs in to an account, so purchases follow the account to other devices (the default)."
        case .device: "A device identifier: purchases cannot be restored on another device."
        }
    }
}

extension RefundedSpendPolicy: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .owe: "The refund takes back the whole refunded share; what the balance cannot cover is owed, and later grants pay it first (the default)."
        case .forgive: "The refund takes back at most what the balance holds when it is applied; nothing is owed."
        }
    }
}

extension DeliveryModel: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .builtIn: "Everything the product needs ships in the app (or is Apple-hosted); the purchase unlocks it."
        case .server: "Your server delivers the product, after validating the receipt."
        }
    }
}

extension ContentSource: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .bundle: "Shipped inside the app bundle (needs a path; never downloaded)."
        case .appleHosted: "Hosted by Apple and downloaded through StoreKit (at most 2 GB per product)."
        case .server: "Downloaded from your own server."
        }
    }
}

extension ContentStorage: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .cache: "The caches folder: the system may purge it, and the content is downloaded again."
        case .documents: "The documents folder, excluded from backups: kept."
        }
    }
}

extension PersistenceStrategy: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .receipt: "The app receipt is the record of the purchase."
        case .userDefaults: "The user defaults system, on this device."
        case .icloud: "iCloud's key-value store, synced across the user's devices."
        case .server: "Your server keeps the record, keyed by the user's account."
        case .appState: "The app's own preserved state (for consumables)."
        }
    }
}

extension RecordKind: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .flag: "A boolean or a number (the default)."
        case .receipt: "A copy of the transaction's receipt, which resists tampering."
        }
    }
}

extension RestorePolicy: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .receiptRefresh: "Refresh the receipt and deliver what it lists; no new transactions."
        case .restoreTransactions: "Replay completed transactions; needed to download Apple-hosted content again."
        case .server: "Ask your server what the account owns."
        case .icloud: "Read the record synced through iCloud."
        case .none: "Not restored (consumables)."
        }
    }
}

extension RestoreTrigger: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .user: "A Restore Purchases button (the default)."
        case .launch: "Every launch; prompts for the account's password, so the guide discourages it."
        }
    }
}

extension RestoreSelection: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .all: "Download all content again (the default)."
        case .user: "The user chooses which content to download again."
        }
    }
}

extension SubscriptionPeriod: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .oneWeek: "One week."
        case .oneMonth: "One month."
        case .twoMonths: "Two months."
        case .threeMonths: "Three months."
        case .sixMonths: "Six months."
        case .oneYear: "One year."
        }
    }
}

extension OfferMode: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .freeTrial: "Free for the offer's period (P3D, P1W, P2W, P1M, P2M, P3M, P6M or P1Y); no price, no periods."
        case .payAsYouGo: "A reduced price for each billing period of the subscription, for 'periods' periods; needs a price."
        case .payUpFront: "One reduced price for the offer's period (P1M, P2M, P3M, P6M or P1Y); needs a price."
        }
    }
}

extension TransactionState: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .purchasing: "Being processed by the store."
        case .deferred: "Waiting for an outside action such as Ask to Buy."
        case .purchased: "Paid: deliver, then finish."
        case .failed: "Did not go through (see 'error')."
        case .restored: "Replayed by a restore."
        }
    }
}

extension StoreErrorCode: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .unknown: "An error the store could not name."
        case .clientInvalid: "The client may not make the request."
        case .paymentCancelled: "The user cancelled."
        case .paymentInvalid: "A payment parameter was not recognised."
        case .paymentNotAllowed: "The device may not make payments."
        case .productNotAvailable: "The product is not available in the current storefront."
        case .networkError: "The network failed."
        case .cloudServicePermissionDenied: "The user has not allowed access to cloud service information."
        case .cloudServiceNetworkConnectionFailed: "The device could not connect to the network for a cloud service."
        case .cloudServiceRevoked: "The user revoked permission to use the cloud service."
        case .verificationFailed: "The App Store's signature of the transaction did not check out on the device (StoreKit 2)."
        }
    }
}

extension BuiltInStep: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .notify: "Built-in: update the interface (a spinner while purchasing, the new state after)."
        case .verifyReceipt: "Built-in: validate the receipt with your server before delivering."
        case .download: "Built-in: download content that is not in the app bundle."
        case .persist: "Built-in: record the purchase with the product's persistence strategy."
        case .unlock: "Built-in: make the product's features available."
        case .grant: "Built-in: add the product's amounts to balances (consumables)."
        case .finish: "Built-in: tell the store the transaction is done; it is not delivered again."
        case .presentError: "Built-in: show the store's error to the user."
        }
    }
}

extension OfferKind: SchemaDescribed {
    var schemaDescription: String {
        switch self {
        case .promotional: "A promotional offer: for existing or lapsed subscribers, signed by your server and presented by the app."
        case .offerCode: "An offer code: redeemed with a one-time or custom code, in the App Store or in the app."
        case .winBack: "A win-back offer: for subscribers who cancelled, shown by the App Store and in the app."
        }
    }
}
