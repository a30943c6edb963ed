import StorekeeperServerStorage

/// Ledger values for the tests, varied by the parts a test cares about.
enum Samples {
    static func transaction(
        _ id: String, user: String, product: String = "com.example.coins", signedDate: Double = 1_700_000_000,
        quantity: Int = 1, revocationDate: Double? = nil
    ) -> StoredTransaction {
        StoredTransaction(
            transactionID: id, user: user, originalTransactionID: id, productID: product, environment: "Sandbox",
            quantity: quantity, purchaseDate: 1_699_999_000.25, expirationDate: nil, revocationDate: revocationDate,
            signedDate: signedDate, payload: "jws.\(id).\(signedDate)")
    }

    static func notification(_ uuid: String, type: String = "DID_RENEW", receivedAt: Double = 1_700_000_000) -> StoredNotification {
        StoredNotification(
            notificationUUID: uuid, notificationType: type, subtype: nil, environment: "Sandbox", payload: "jws.\(uuid)",
            receivedAt: receivedAt)
    }
}
