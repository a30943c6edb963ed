import StorekeeperTestChain

/// What a random life learned from the App Store's messages so far: the transactions (newest version by
/// id) in the order they appeared, so that its next action names things that exist (the world's
/// dictionaries have no stable order). Whether the action is valid now is the model's to say: it refuses
/// what is not (``StoreModelError``).
struct LifeKnowledge: Sendable {
    /// Transaction ids in the order first seen.
    private(set) var transactionIDs: [String] = []
    /// The newest version (largest signedDate) of each transaction.
    private(set) var transactions: [String: TransactionPayload] = [:]

    mutating func learn(_ messages: [StoreMessage]) {
        for message in messages {
            switch message {
            case .transaction(let device):
                learn(device.payload)
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
