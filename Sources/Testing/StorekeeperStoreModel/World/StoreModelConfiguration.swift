public import Foundation
public import StorekeeperSimulatedStore
public import StorekeeperTestChain

extension StoreModel {
    /// What the model's App Store is set up with: the app, its environment, the clock's start, App Store
    /// Connect's billing grace period setting, and the signer of every payload.
    public struct Configuration: Sendable {
        /// `bundleId`.
        public var bundleID: String
        /// `data.appAppleId`.
        public var appAppleID: Int?
        /// `environment` of every payload.
        public var environment: AppStoreEnvironment
        /// The clock's start; it must lie inside the signer's chain validity.
        public var start: Date
        /// App Store Connect's billing grace period: nil (off), 3, 16 or 28 days.
        /// Source: https://developer.apple.com/help/app-store-connect/manage-subscriptions/enable-billing-grace-period-for-auto-renewable-subscriptions
        public var billingGracePeriodDays: Int?
        /// Signs every transaction, renewal info and notification.
        public var signer: SignedDataSigner

        /// A configuration.
        public init(bundleID: String, appAppleID: Int? = nil, environment: AppStoreEnvironment = .sandbox, start: Date,
                    billingGracePeriodDays: Int? = nil, signer: SignedDataSigner) {
            self.bundleID = bundleID
            self.appAppleID = appAppleID
            self.environment = environment
            self.start = start
            self.billingGracePeriodDays = billingGracePeriodDays
            self.signer = signer
        }
    }
}
