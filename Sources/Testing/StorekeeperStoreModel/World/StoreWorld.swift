public import Foundation
public import StorekeeperTestChain

/// What the model knows of the world, for drivers that pick valid actions: Apple IDs and their app accounts,
/// family groups, subscriptions by original transaction id, and every transaction by id in its newest version.
public struct StoreWorld: Sendable {
    /// An Apple ID and the app accounts signed in on its device.
    public struct AppleID: Sendable, Hashable {
        /// The Apple ID.
        public internal(set) var id: String
        /// The app account signed in on its device now (the last purchase's or sign-in's; the Apple ID's own name
        /// before either).
        public internal(set) var account: String
        /// Every app account signed in on its device, in the order first seen.
        public internal(set) var accounts: [String]
        /// Whether its payment method fails (renewals fail until `billingRecovers`).
        public internal(set) var billingFails: Bool
        /// The organizer of its family group (itself for the organizer), nil outside one.
        public internal(set) var organizer: String?
        /// Subscription groups it has subscribed to (introductory offers are for those it has not).
        public internal(set) var subscribedGroups: Set<String>

        init(id: String) {
            self.id = id
            account = id
            accounts = []
            billingFails = false
            organizer = nil
            subscribedGroups = []
        }
    }

    /// An auto-renewable subscription: one original transaction of one Apple ID (a family member's shared copy
    /// is one of its own, with its own original transaction id).
    public struct Subscription: Sendable, Hashable {
        /// Apple's subscription status (`data.status`, `status`).
        public enum State: Int, Sendable, Hashable, CaseIterable {
            /// Active (1).
            case active = 1
            /// Expired (2).
            case expired = 2
            /// In billing retry (3).
            case billingRetry = 3
            /// In the billing grace period (4).
            case gracePeriod = 4
            /// Revoked (5).
            case revoked = 5
        }

        /// `originalTransactionId`.
        public internal(set) var originalTransactionID: String
        /// The Apple ID that has it (the purchaser, or the family member of a shared copy).
        public internal(set) var appleID: String
        /// The app account that holds it.
        public internal(set) var account: String
        /// Its subscription group.
        public internal(set) var group: String
        /// The current period's product.
        public internal(set) var productID: String
        /// The product it renews into (`autoRenewProductId`).
        public internal(set) var autoRenewProductID: String
        /// `autoRenewStatus`.
        public internal(set) var autoRenews: Bool
        /// Apple's status now.
        public internal(set) var state: State
        /// The current period's transaction.
        public internal(set) var currentTransactionID: String
        /// The current period's end (`expiresDate`).
        public internal(set) var expiresDate: Date
        /// The grace period's end while in it (`gracePeriodExpiresDate`).
        public internal(set) var gracePeriodExpiresDate: Date?
        /// When billing retry gives up (60 days after the failed renewal), while retrying.
        public internal(set) var billingRetryEnds: Date?
        /// `priceIncreaseStatus`: 0 pending consent, 1 consented; nil without a price increase.
        public internal(set) var priceIncreaseStatus: Int?
        /// For a family member's shared copy: the purchaser's subscription (its original transaction id).
        public internal(set) var sharedFrom: String?
        /// Every transaction of it, oldest first.
        public internal(set) var transactionIDs: [String]

        // What the model needs besides.
        var appAccountToken: UUID?
        /// The app account whose token ``appAccountToken`` is (it holds the renewals).
        var tokenHolder: String?
        var recentStart: Date
        var expirationIntent: RenewalInfoPayload.ExpirationIntent?
        var offer: Offer?
        var offerPeriodsLeft: Int
        var extensions: [Date]
        var sharedCopies: [String: String]
    }

    /// Apple IDs by id.
    public internal(set) var appleIDs: [String: StoreWorld.AppleID] = [:]
    /// Auto-renewable subscriptions by original transaction id.
    public internal(set) var subscriptions: [String: Subscription] = [:]
    /// Every transaction by id, in its newest signed version.
    public internal(set) var transactions: [String: TransactionPayload] = [:]
    /// The app account holding each transaction (by transaction id), per docs/store-model.md's ownership rules.
    public internal(set) var holders: [String: String] = [:]
    /// The Apple ID each transaction was made for (by transaction id).
    public internal(set) var owners: [String: String] = [:]

    /// Family groups: each organizer's members (the organizer first, then in the order they joined).
    public internal(set) var families: [String: [String]] = [:]

    // Indexes, so that a step never scans every transaction.
    /// Transaction ids by the app account holding them.
    var heldBy: [String: [String]] = [:]
    /// Transaction ids by the Apple ID that has them.
    var byAppleID: [String: [String]] = [:]
    /// Accepted spends, by app account and balance.
    var spent: [String: [String: Int]] = [:]
    /// A purchased non-consumable's family-shared copies: purchaser's transaction id → member → copy's transaction id.
    var sharedCopies: [String: [String: String]] = [:]
    /// The purchased subscription of an Apple ID in a group ("appleID group" → original transaction id).
    var subscriptionByGroup: [String: String] = [:]

    /// The subscription `appleID` bought in `group` (not a family-shared copy), if any.
    public func subscription(of appleID: String, inGroup group: String) -> Subscription? {
        subscriptionByGroup[appleID + " " + group].flatMap { subscriptions[$0] }
    }

    init() {}
}
