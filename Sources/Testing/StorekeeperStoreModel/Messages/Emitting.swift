import Foundation
import StorekeeperTestChain

// Making ids and signing what the App Store sends. Every payload is signed at the model's clock
// (`signedDate` = now) by the configuration's signer.
extension StoreModel {
    /// A new transaction id: numeric, as Apple's are, from a counter.
    mutating func newTransactionID() -> String {
        counters.transaction += 1
        return String(2_000_000_000_000_000 + counters.transaction)
    }

    /// A new `webOrderLineItemId` (one per subscription period purchased).
    /// Source: https://developer.apple.com/documentation/appstoreserverapi/weborderlineitemid
    mutating func newWebOrderLineItemID() -> String {
        counters.webOrderLineItem += 1
        return String(1_000_000_000_000_000 + counters.webOrderLineItem)
    }

    /// A new `notificationUUID`, from a counter (version 4 and variant bits set, so it reads as a UUID).
    mutating func newNotificationUUID() -> UUID {
        counters.notification += 1
        let hex = String(counters.notification, radix: 16)
        let tail = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
        return UUID(uuidString: "5708e000-0000-4000-8000-\(tail)") ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0))
    }

    func sign(_ payload: TransactionPayload) throws(StoreModelError) -> String {
        do { return try configuration.signer.sign(payload.json) } catch { throw StoreModelError("signing a transaction failed: \(error)") }
    }

    /// Records `payload` as the newest version of its transaction, held by `holder`, for `appleID`.
    mutating func record(_ payload: TransactionPayload, holder: String, appleID: String) {
        let id = payload.transactionID
        if world.holders[id] == nil {
            world.holders[id] = holder
            world.owners[id] = appleID
            world.heldBy[holder, default: []].append(id)
            world.byAppleID[appleID, default: []].append(id)
        }
        world.transactions[id] = payload
    }

    /// The instant the next message is signed at: `now`, moved on by a millisecond when a message was already signed
    /// at `now`, so that no two messages (and no two versions of a transaction) share a `signedDate` and "the newest
    /// signed" is never a tie, whatever order they arrive in.
    mutating func stamp() -> Date {
        if let last = counters.lastSigned, now <= last { now = last.addingTimeInterval(0.001) }
        counters.lastSigned = now
        return now
    }

    /// Records `payload`, stamped (``stamp()``), and sends it to the device of the Apple ID that has it (a purchase's
    /// result or `Transaction.updates`); answers the version recorded.
    /// Source: https://developer.apple.com/documentation/storekit/transaction/updates
    @discardableResult
    mutating func deliver(_ payload: TransactionPayload, holder: String, appleID: String, into outbox: inout Outbox)
        throws(StoreModelError) -> TransactionPayload {
        var payload = payload
        payload.signedDate = stamp()
        record(payload, holder: holder, appleID: appleID)
        let account = world.appleIDs[appleID]?.account ?? appleID
        outbox.messages.append(.transaction(DeviceTransaction(appleID: appleID, account: account, signed: try sign(payload), payload: payload)))
        return payload
    }

    /// Sends an App Store Server Notification V2 about `transaction` (and `renewal` with `status` for a subscription).
    /// Source: https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2decodedpayload
    /// and https://developer.apple.com/documentation/appstoreservernotifications/data
    mutating func notify(_ type: NotificationPayload.NotificationType, _ subtype: NotificationPayload.Subtype? = nil,
                         transaction: TransactionPayload?, renewal: RenewalInfoPayload? = nil,
                         status: NotificationPayload.SubscriptionStatus? = nil, into outbox: inout Outbox) throws(StoreModelError) {
        let signedDate = stamp()
        var renewal = renewal
        renewal?.signedDate = signedDate
        do {
            let signedTransaction = try transaction.map { payload throws(TestChainError) in try configuration.signer.sign(payload.json) }
            let signedRenewal = try renewal.map { payload throws(TestChainError) in try configuration.signer.sign(payload.json) }
            let payload = NotificationPayload(
                notificationType: type, subtype: subtype, notificationUUID: newNotificationUUID(), appAppleID: configuration.appAppleID,
                bundleID: configuration.bundleID, environment: configuration.environment, signedTransactionInfo: signedTransaction,
                signedRenewalInfo: signedRenewal, status: status, signedDate: signedDate)
            let signed = try configuration.signer.sign(payload.json)
            outbox.messages.append(.notification(ServerNotification(signedPayload: signed, payload: payload, transaction: transaction, renewal: renewal)))
        } catch {
            throw StoreModelError("signing a notification failed: \(error)")
        }
    }
}
