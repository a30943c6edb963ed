import Foundation
import StorekeeperRuntime
import StorekeeperTestChain

/// What a subscription event did to the purchaser's transactions, so that family-shared copies follow.
enum CopyChange {
    /// No transaction changed (a status or renewal-preference change).
    case none
    /// A new period began (purchase, renewal, recovery, upgrade); `upgradedFrom` is set when the previous
    /// period's transaction became `isUpgraded`.
    case newPeriod(upgradedFrom: String?)
    /// The current period's end moved (a renewal date extension).
    case extended
}

extension StoreModel {
    /// Sends `type`/`subtype` about purchased subscription `id` with its current transaction, renewal info and status,
    /// then the same event to every family member who shares it.
    /// Source: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype
    /// `toFamily` false: the event concerns the purchaser alone (a price increase asks the payer's consent).
    mutating func announce(_ id: String, _ type: NotificationPayload.NotificationType, _ subtype: NotificationPayload.Subtype?,
                           change: CopyChange, toFamily: Bool = true, into outbox: inout Outbox) throws(StoreModelError) {
        guard let subscription = world.subscriptions[id], let current = world.transactions[subscription.currentTransactionID] else { return }
        try notify(type, subtype, transaction: current, renewal: renewalInfo(of: subscription), status: status(of: subscription), into: &outbox)
        if toFamily { try followFamily(of: id, type, subtype, change: change, into: &outbox) }
    }

    /// Family members follow the purchaser's subscription: each member's copy (its own transactions, ownership
    /// `FAMILY_SHARED`) mirrors the purchaser's state and gets the same notification; a member without a copy gets
    /// one (`SUBSCRIBED`/`INITIAL_BUY`) when a new period of a family-shareable product begins; a product no
    /// longer shareable (after a downgrade) is revoked from them (`REVOKE`).
    /// Sources: https://developer.apple.com/documentation/storekit/supporting-family-sharing-in-your-app
    /// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (SUBSCRIBED: "received
    /// access through Family Sharing"; REVOKE)
    mutating func followFamily(of id: String, _ type: NotificationPayload.NotificationType, _ subtype: NotificationPayload.Subtype?,
                               change: CopyChange, into outbox: inout Outbox) throws(StoreModelError) {
        guard let subscription = world.subscriptions[id], subscription.sharedFrom == nil else { return }
        let shareable = products[subscription.productID]?.familyShareable ?? false
        for member in otherFamilyMembers(of: subscription.appleID) {
            if let copyID = subscription.sharedCopies[member], let copy = world.subscriptions[copyID], copy.state != .revoked {
                guard shareable else {
                    try revokeCopy(copyID, reason: .otherReason, into: &outbox)
                    continue
                }
                try mirror(id, into: copyID, change: change, into: &outbox)
                // The member redeemed no offer: regaining access is SUBSCRIBED ("received access through Family Sharing").
                let memberType: NotificationPayload.NotificationType = type == .offerRedeemed ? .subscribed : type
                if let mirrored = world.subscriptions[copyID], let current = world.transactions[mirrored.currentTransactionID] {
                    try notify(memberType, subtype, transaction: current, renewal: renewalInfo(of: mirrored), status: status(of: mirrored),
                               into: &outbox)
                }
            } else if shareable, subscription.isLive, case .newPeriod = change {
                try shareSubscription(id, with: member, into: &outbox)
            }
        }
    }

    /// A new copy of purchased subscription `id` for `member`: `SUBSCRIBED`/`INITIAL_BUY`, a transaction of its own.
    mutating func shareSubscription(_ id: String, with member: String, into outbox: inout Outbox) throws(StoreModelError) {
        guard let subscription = world.subscriptions[id], subscription.isLive,
              products[subscription.productID]?.familyShareable == true,
              let current = world.transactions[subscription.currentTransactionID] else { return }
        touch(appleID: member)
        let copyID = newTransactionID()
        let holder = world.appleIDs[member]?.account ?? member
        var copy = StoreWorld.Subscription(
            originalTransactionID: copyID, appleID: member, account: holder, group: subscription.group, productID: subscription.productID,
            expiresDate: subscription.expiresDate, appAccountToken: nil, start: now, sharedFrom: id)
        copy.transactionIDs = [copyID]
        world.subscriptions[copyID] = copy
        world.subscriptions[id]?.sharedCopies[member] = copyID
        var payload = familyCopy(of: current, id: copyID, originalID: copyID)
        payload.originalPurchaseDate = now
        let delivered = try deliver(payload, holder: holder, appleID: member, into: &outbox)
        try mirror(id, into: copyID, change: .none, into: &outbox)
        guard let mirrored = world.subscriptions[copyID] else { return }
        try notify(.subscribed, .initialBuy, transaction: delivered, renewal: renewalInfo(of: mirrored), status: status(of: mirrored), into: &outbox)
    }

    /// A family member's version of `transaction`: its own ids, ownership `FAMILY_SHARED`, no appAccountToken.
    /// Source: https://developer.apple.com/documentation/storekit/supporting-family-sharing-in-your-app ("each family
    /// member gets their own unique receipts and transactions")
    mutating func familyCopy(of transaction: TransactionPayload, id: String, originalID: String) -> TransactionPayload {
        var payload = transaction
        payload.transactionID = id
        payload.originalTransactionID = originalID
        payload.webOrderLineItemID = transaction.webOrderLineItemID == nil ? nil : newWebOrderLineItemID()
        payload.appAccountToken = nil
        payload.ownership = .familyShared
        payload.signedDate = now
        payload.isUpgraded = nil
        payload.revocationDate = nil
        payload.revocationReason = nil
        payload.revocationPercentage = nil
        payload.revocationType = nil
        payload.offerType = nil
        payload.offerIdentifier = nil
        payload.offerDiscountType = nil
        return payload
    }

    /// Copy `copyID` takes the purchaser's state; with a new period it gets a transaction of its own for it (and its
    /// previous one becomes `isUpgraded` after an upgrade); with an extension its current transaction's end moves.
    mutating func mirror(_ id: String, into copyID: String, change: CopyChange, into outbox: inout Outbox) throws(StoreModelError) {
        guard let source = world.subscriptions[id], var copy = world.subscriptions[copyID],
              let current = world.transactions[source.currentTransactionID] else { return }
        switch change {
        case .none:
            break
        case .newPeriod(let upgradedFrom):
            if upgradedFrom != nil, var old = world.transactions[copy.currentTransactionID] {
                old.isUpgraded = true
                old.signedDate = now
                try deliver(old, holder: copy.account, appleID: copy.appleID, into: &outbox)
            }
            let newID = newTransactionID()
            let payload = familyCopy(of: current, id: newID, originalID: copyID)
            copy.currentTransactionID = newID
            copy.transactionIDs.append(newID)
            world.subscriptions[copyID] = copy
            try deliver(payload, holder: copy.account, appleID: copy.appleID, into: &outbox)
        case .extended:
            if var payload = world.transactions[copy.currentTransactionID] {
                payload.expiresDate = source.expiresDate
                payload.signedDate = now
                try deliver(payload, holder: copy.account, appleID: copy.appleID, into: &outbox)
            }
        }
        guard var updated = world.subscriptions[copyID] else { return }
        updated.productID = source.productID
        updated.autoRenewProductID = source.autoRenewProductID
        updated.autoRenews = source.autoRenews
        updated.state = source.state
        updated.expiresDate = source.expiresDate
        updated.gracePeriodExpiresDate = source.gracePeriodExpiresDate
        updated.billingRetryEnds = source.billingRetryEnds
        updated.expirationIntent = source.expirationIntent
        world.subscriptions[copyID] = updated
    }
}
