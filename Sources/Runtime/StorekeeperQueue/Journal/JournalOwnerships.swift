import Foundation
import GRDB

/// Who owns each product, chosen from every ownership a transaction delivered (the `ownerships` table):
/// `owned` keeps one transaction per product, and when that one is revoked the product passes to the best
/// of the others that stand instead of going with it.
///
/// The best is the one that lasts longest (no end outlasts any end; of equal ends the first bought, whose
/// term stands: purchases of a pass do not stack), among transactions not revoked and, for an auto-renewable
/// subscription, not superseded: a period owns its product only while no later period of the same
/// subscription (`originalTransactionId`) that stands delivered, as `Transaction.currentEntitlements` gives
/// "the latest transaction for each auto-renewable subscription"
/// (https://developer.apple.com/documentation/storekit/transaction/currententitlements).
extension Journal {
    /// Whether a later period of `subscription` than the one bought at `purchaseDate` delivered and is not
    /// revoked (refunded, or upgraded from): the earlier one is then no longer the subscription's current one.
    static func isSuperseded(subscription: String, bought purchaseDate: Date, in db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM ownerships later WHERE later.subscription = ? AND later.purchase_date > ?
                AND NOT EXISTS (SELECT 1 FROM revocations WHERE revocations.transaction_id = later.transaction_id))
            """), arguments: [subscription, purchaseDate.timeIntervalSince1970]) ?? false
    }

    /// Every auto-renewable period a later period of its subscription that stands has superseded: a record of
    /// one kept elsewhere (the server's, iCloud's) gives nothing, as the journal's own ownership of it does not.
    func supersededPeriods() throws(JournalError) -> Set<String> {
        try read { db in
            Set(try String.fetchAll(db, sql: """
                SELECT DISTINCT earlier.transaction_id FROM ownerships earlier
                WHERE earlier.subscription IS NOT NULL AND EXISTS (
                    SELECT 1 FROM ownerships later WHERE later.subscription = earlier.subscription
                    AND later.purchase_date > earlier.purchase_date
                    AND NOT EXISTS (SELECT 1 FROM revocations WHERE revocations.transaction_id = later.transaction_id))
                """))
        }
    }

    /// The products other than `productID` that an earlier period of `subscription` than the one bought at
    /// `purchaseDate` owns now: a later period delivered supersedes them.
    static func productsOfEarlierPeriods(of subscription: String, before purchaseDate: Date, other productID: String,
                                         in db: Database) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: """
            SELECT DISTINCT owned.product FROM ownerships earlier
            JOIN owned ON owned.product = earlier.product AND owned.transaction_id = earlier.transaction_id
            WHERE earlier.subscription = ? AND earlier.purchase_date < ? AND earlier.product != ?
            """), arguments: [subscription, purchaseDate.timeIntervalSince1970, productID])
    }

    /// The products whose owner may change when `transactionIDs` are revoked or reinstated: those they own
    /// now, and those of the other periods of their subscriptions (an earlier period is current again once
    /// the later one is refunded).
    static func productsTouched(by transactionIDs: [String], in db: Database) throws -> Set<String> {
        var products = Set<String>()
        let owning = try db.cachedStatement(sql: "SELECT product FROM owned WHERE transaction_id = ?")
        let periods = try db.cachedStatement(sql: """
            SELECT DISTINCT other.product FROM ownerships mine JOIN ownerships other ON other.subscription = mine.subscription
            WHERE mine.transaction_id = ? AND mine.subscription IS NOT NULL
            """)
        for id in transactionIDs {
            products.formUnion(try String.fetchAll(owning, arguments: [id]))
            products.formUnion(try String.fetchAll(periods, arguments: [id]))
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
                AND (o.subscription IS NULL OR NOT EXISTS (
                    SELECT 1 FROM ownerships later WHERE later.subscription = o.subscription AND later.purchase_date > o.purchase_date
                        AND NOT EXISTS (SELECT 1 FROM revocations WHERE revocations.transaction_id = later.transaction_id)))
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
