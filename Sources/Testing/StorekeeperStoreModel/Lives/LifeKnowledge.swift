import StorekeeperTestChain

/// What a random life learned from the App Store's messages so far: the transactions (newest version by
/// id) and the subscriptions people pay for, so that its next action names things that exist. Whether the
/// action is valid now is the model's to say: it refuses what is not (``StoreModelError``).
struct LifeKnowledge: Sendable {
    /// A subscription someone pays for: its original transaction, its payer, its current product.
    struct Subscription: Sendable, Hashable {
        var originalTransactionID: String
        var appleID: String
        var productID: String
    }

    /// Transaction ids in the order first seen.
    private(set) var transactionIDs: [String] = []
    /// The newest version (largest signedDate) of each transaction.
    private(set) var transactions: [String: TransactionPayload] = [:]
    /// Subscriptions in the order first seen.
    private(set) var subscriptions: [Subscription] = []

    mutating func learn(_ messages: [StoreMessage]) {
        for message in messages {
            switch message {
            case .transaction(let device):
                learn(device.payload)
                if device.payload.type == .autoRenewableSubscription, device.payload.ownership == .purchased {
                    let original = device.payload.originalTransactionID
                    if let index = subscriptions.firstIndex(where: { $0.originalTransactionID == original }) {
                        subscriptions[index].productID = device.payload.productID
                    } else {
                        subscriptions.append(Subscription(originalTransactionID: original, appleID: device.appleID, productID: device.payload.productID))
                    }
                }
            case .notification(let notification):
                if let transaction = notification.transaction { learn(transaction) }
            }
        }
    }

    private mutating func learn(_ payload: TransactionPayload) {
        if let kept = transactions[payload.transactionID] {
            if payload.signedDate >= kept.signedDate { transactions[payload.transactionID] = payload }
        } else {
            transactionIDs.append(payload.transactionID)
            transactions[payload.transactionID] = payload
        }
    }

    /// The ids of transactions whose newest version is revoked.
    var revokedTransactionIDs: [String] {
        transactionIDs.filter { transactions[$0]?.revocationDate != nil }
    }
}
