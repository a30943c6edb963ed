import Foundation
import GRDB

extension Journal {
    /// Moves the end of a subscription this device owns through `transaction` to the later end a new version
    /// of it carries: the developer extended the renewal date (the App Store signs the period's transaction
    /// again with a later `expiresDate`, RENEWAL_EXTENDED;
    /// https://developer.apple.com/documentation/appstoreserverapi/extend-a-subscription-renewal-date), or
    /// StoreKit delivers it again in a billing grace period (its end is then the grace period's). As the
    /// `own` effect does: the later end wins, so an earlier one changes nothing. Returns whether the
    /// ownership changed; the in-memory `ledger` follows the commit.
    func extendOwnership(of productID: String, through transaction: StoreTransaction, until end: Date,
                         ledger: inout EntitlementLedger) throws(JournalError) -> Bool {
        var changed = false
        do {
            try write(durable: false) { db in
                // The ownership kept for this transaction ends later too; a
                // period a later one of its subscription superseded stays without its product.
                try db.cachedStatement(sql: """
                    UPDATE ownerships SET expiration_date = ? WHERE product = ? AND transaction_id = ?
                        AND expiration_date IS NOT NULL AND expiration_date < ?
                    """).execute(arguments: [end.timeIntervalSince1970, productID, transaction.id, end.timeIntervalSince1970])
                // Only a transaction that delivered the product owns it (a restore
                // whose plan owns nothing, the receipt keeping the product, does not).
                guard let row = try Row.fetchOne(db, sql: "SELECT subscription FROM ownerships WHERE product = ? AND transaction_id = ?",
                                                 arguments: [productID, transaction.id]) else { return }
                if let subscription: String = row[0], try Journal.isSuperseded(subscription: subscription, bought: transaction.purchaseDate, in: db) {
                    return
                }
                try db.cachedStatement(sql: """
                    INSERT INTO owned (product, transaction_id, purchase_date, expiration_date) VALUES (?, ?, ?, ?)
                    ON CONFLICT (product) DO UPDATE SET transaction_id = excluded.transaction_id, purchase_date = excluded.purchase_date,
                        expiration_date = excluded.expiration_date
                    WHERE owned.expiration_date IS NOT NULL AND excluded.expiration_date > owned.expiration_date
                    """).execute(arguments: [productID, transaction.id, transaction.purchaseDate.timeIntervalSince1970, end.timeIntervalSince1970])
                changed = db.changesCount == 1
            }
        } catch let error as JournalError {
            throw error
        } catch {
            throw JournalError(path: path, error)
        }
        if changed {
            ledger.own(productID, .init(transactionID: transaction.id, purchaseDate: transaction.purchaseDate, expirationDate: end))
        }
        return changed
    }
}
