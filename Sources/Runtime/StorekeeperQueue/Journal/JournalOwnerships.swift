import Foundation
import GRDB

/// Who owns each product, chosen from every ownership a transaction delivered (the `ownerships` table):
/// `owned` keeps one transaction per product, and when that one is revoked the product passes to the best
/// of the others that stand instead of going with it.
///
/// The best is the one that lasts longest (no end outlasts any end; of equal ends the first bought, whose
/// term stands: purchases of a pass do not stack), among transactions not revoked, as
/// `Transaction.currentEntitlements` gives "the latest transaction for each non-renewing subscription" and
/// leaves out "Products that the App Store has refunded or revoked"
/// (https://developer.apple.com/documentation/storekit/transaction/currententitlements).
extension Journal {
    /// Notes that `transactionID` delivered `productID` until `expiration` (nil: no end); a second note of
    /// the same keeps the later end. `subscription` is the period's `originalTransactionId`, nil for a
    /// product that is not an auto-renewable subscription.
    static func noteOwnership(_ productID: String, transactionID: String, subscription: String?, purchaseDate: Date,
                              expiration: Date?, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO ownerships (product, transaction_id, subscription, purchase_date, expiration_date) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (product, transaction_id) DO UPDATE SET expiration_date = excluded.expiration_date
            WHERE ownerships.expiration_date IS NOT NULL AND (excluded.expiration_date IS NULL OR excluded.expiration_date > ownerships.expiration_date)
            """).execute(arguments: [productID, transactionID, subscription, purchaseDate.timeIntervalSince1970,
                                     expiration?.timeIntervalSince1970])
    }

    /// The products whose owner may change when `transactionIDs` are revoked: those they own now.
    static func productsTouched(by transactionIDs: [String], in db: Database) throws -> Set<String> {
        var products = Set<String>()
        let owning = try db.cachedStatement(sql: "SELECT product FROM owned WHERE transaction_id = ?")
        for id in transactionIDs {
            products.formUnion(try String.fetchAll(owning, arguments: [id]))
        }
        return products
    }

    /// Chooses again who owns each of `products` from the ownerships that stand (see the type's comment);
    /// a product none of them owns is owned no more. Returns each product's owner now (nil: none), for the
    /// in-memory ledger.
    @discardableResult
    static func chooseOwners(of products: some Sequence<String>, in db: Database) throws -> [String: EntitlementLedger.Ownership?] {
        var chosen: [String: EntitlementLedger.Ownership?] = [:]
        let forget = try db.cachedStatement(sql: "DELETE FROM owned WHERE product = ?")
        let best = try db.cachedStatement(sql: """
            SELECT o.transaction_id, o.purchase_date, o.expiration_date FROM ownerships o
            WHERE o.product = ?
                AND NOT EXISTS (SELECT 1 FROM revocations WHERE revocations.transaction_id = o.transaction_id)
            ORDER BY o.expiration_date IS NULL DESC, o.expiration_date DESC, o.purchase_date ASC
            LIMIT 1
            """)
        let own = try db.cachedStatement(sql: "INSERT INTO owned (product, transaction_id, purchase_date, expiration_date) VALUES (?, ?, ?, ?)")
        for product in products {
            try forget.execute(arguments: [product])
            guard let row = try Row.fetchOne(best, arguments: [product]) else {
                chosen[product] = .some(nil)
                continue
            }
            let ownership = EntitlementLedger.Ownership(transactionID: row[0], purchaseDate: Date(timeIntervalSince1970: row[1]),
                                                        expirationDate: (row[2] as Double?).map(Date.init(timeIntervalSince1970:)))
            try own.execute(arguments: [product, ownership.transactionID, row[1] as Double, row[2] as Double?])
            chosen[product] = .some(ownership)
        }
        return chosen
    }
}
