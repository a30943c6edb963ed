import Foundation
import StorekeeperRuntime
import StorekeeperTestChain

extension StoreModel {
    /// `appleID` joins `organizer`'s family group (made when `organizer` has none; at most six people). Each family
    /// member's family-shareable non-consumables and live subscriptions are shared with the newcomer, and the
    /// newcomer's with them: a `FAMILY_SHARED` transaction of the member's own.
    /// Sources: https://developer.apple.com/documentation/storekit/supporting-family-sharing-in-your-app ("up to five
    /// family members"; "each family member gets their own unique receipts and transactions")
    mutating func joinFamily(appleID: String, organizer: String, into outbox: inout Outbox) throws(StoreModelError) {
        guard appleID != organizer else { throw StoreModelError("\(appleID) cannot join its own family group") }
        touch(appleID: appleID)
        touch(appleID: organizer)
        if let current = world.appleIDs[appleID]?.organizer {
            throw StoreModelError("\(appleID) is already in \(current)'s family group; it leaves it first")
        }
        if let organizersOrganizer = world.appleIDs[organizer]?.organizer, organizersOrganizer != organizer {
            throw StoreModelError("\(organizer) is a member of \(organizersOrganizer)'s family group, not an organizer")
        }
        var members = world.families[organizer] ?? [organizer]
        guard members.count < 6 else { throw StoreModelError("\(organizer)'s family group has six people, Family Sharing's limit") }
        let others = members
        members.append(appleID)
        world.families[organizer] = members
        world.appleIDs[organizer]?.organizer = organizer
        world.appleIDs[appleID]?.organizer = organizer
        for other in others {
            try shareEverything(of: other, with: appleID, into: &outbox)
            try shareEverything(of: appleID, with: other, into: &outbox)
        }
    }

    /// What `owner` bought that is family-shareable, shared with `member`.
    mutating func shareEverything(of owner: String, with member: String, into outbox: inout Outbox) throws(StoreModelError) {
        for id in world.byAppleID[owner] ?? [] {
            guard let payload = world.transactions[id], payload.ownership == .purchased, payload.revocationDate == nil,
                  payload.type == .nonConsumable, products[payload.productID]?.familyShareable == true else { continue }
            try shareNonConsumable(purchasedID: id, with: member, into: &outbox)
        }
        let subscriptions = world.subscriptions.values
            .filter { $0.appleID == owner && $0.sharedFrom == nil && $0.isLive }
            .map(\.originalTransactionID).sorted()
        for id in subscriptions {
            if let copyID = world.subscriptions[id]?.sharedCopies[member], world.subscriptions[copyID]?.state != .revoked,
               world.subscriptions[copyID]?.isLive == true { continue }
            try shareSubscription(id, with: member, into: &outbox)
        }
    }

    /// A family member's copy of purchased non-consumable `purchasedID`: a `FAMILY_SHARED` transaction on their device.
    /// The App Store sends no notification for it (Apple documents none for gaining a shared non-consumable).
    mutating func shareNonConsumable(purchasedID: String, with member: String, into outbox: inout Outbox) throws(StoreModelError) {
        guard let purchase = world.transactions[purchasedID] else { return }
        if let existing = world.sharedCopies[purchasedID]?[member], world.transactions[existing]?.revocationDate == nil { return }
        touch(appleID: member)
        let id = newTransactionID()
        let payload = familyCopy(of: purchase, id: id, originalID: id)
        world.sharedCopies[purchasedID, default: [:]][member] = id
        try deliver(payload, holder: world.appleIDs[member]?.account ?? member, appleID: member, into: &outbox)
    }

    /// `appleID` leaves its family group (the organizer leaving disbands it): what it had through Family Sharing is
    /// revoked, and what others had of its purchases: a version with `revocationDate`, `revocationReason` 0 and
    /// `revocationType` `FAMILY_REVOKE`, and `REVOKE` (status 5 for a subscription).
    /// Sources: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (REVOKE)
    /// https://developer.apple.com/documentation/appstoreserverapi/revocationreason ("0 if the customer leaves the family group")
    /// https://developer.apple.com/documentation/appstoreserverapi/revocationtype (FAMILY_REVOKE)
    mutating func leaveFamily(appleID: String, into outbox: inout Outbox) throws(StoreModelError) {
        guard let organizer = world.appleIDs[appleID]?.organizer, let members = world.families[organizer] else {
            throw StoreModelError("\(appleID) is in no family group")
        }
        if organizer == appleID {
            for member in members.reversed() where member != organizer { try leaveFamily(appleID: member, into: &outbox) }
            world.families[organizer] = nil
            world.appleIDs[organizer]?.organizer = nil
            return
        }
        // What the leaver had through sharing.
        for id in world.byAppleID[appleID] ?? [] {
            guard let payload = world.transactions[id], payload.ownership == .familyShared, payload.revocationDate == nil,
                  payload.type == .nonConsumable else { continue }
            try revokeSharedTransaction(id, reason: .otherReason, into: &outbox)
        }
        let copies = world.subscriptions.values
            .filter { $0.appleID == appleID && $0.sharedFrom != nil && $0.state != .revoked }
            .map(\.originalTransactionID).sorted()
        for copyID in copies { try revokeCopy(copyID, reason: .otherReason, into: &outbox) }
        // What the others had of the leaver's purchases.
        for id in world.byAppleID[appleID] ?? [] {
            for member in (world.sharedCopies[id] ?? [:]).keys.sorted() {
                if let copyID = world.sharedCopies[id]?[member] { try revokeSharedTransaction(copyID, reason: .otherReason, into: &outbox) }
            }
        }
        let purchased = world.subscriptions.values.filter { $0.appleID == appleID && $0.sharedFrom == nil }.map(\.originalTransactionID).sorted()
        for id in purchased {
            for member in (world.subscriptions[id]?.sharedCopies ?? [:]).keys.sorted() {
                if let copyID = world.subscriptions[id]?.sharedCopies[member] { try revokeCopy(copyID, reason: .otherReason, into: &outbox) }
            }
        }
        world.families[organizer] = members.filter { $0 != appleID }
        world.appleIDs[appleID]?.organizer = nil
    }

    /// A family-shared non-consumable copy is revoked: `FAMILY_REVOKE` version, `REVOKE`.
    mutating func revokeSharedTransaction(_ id: String, reason: TransactionPayload.RevocationReason, into outbox: inout Outbox)
        throws(StoreModelError) {
        guard var payload = world.transactions[id], payload.revocationDate == nil else { return }
        payload.revocationDate = now
        payload.revocationReason = reason
        payload.revocationType = .familyRevoke
        payload.signedDate = now
        let owner = world.owners[id] ?? ""
        let delivered = try deliver(payload, holder: world.holders[id] ?? owner, appleID: owner, into: &outbox)
        try notify(.revoke, transaction: delivered, into: &outbox)
    }

    /// A family-shared subscription copy is revoked: its current transaction gets a `FAMILY_REVOKE` version, the
    /// copy's status becomes 5, `REVOKE`; the purchaser's subscription no longer lists it.
    mutating func revokeCopy(_ copyID: String, reason: TransactionPayload.RevocationReason, into outbox: inout Outbox) throws(StoreModelError) {
        guard var copy = world.subscriptions[copyID], copy.state != .revoked else { return }
        if let source = copy.sharedFrom { world.subscriptions[source]?.sharedCopies[copy.appleID] = nil }
        // An expired copy gives nothing any more: nothing to revoke.
        guard copy.state != .expired else { return }
        copy.state = .revoked
        copy.autoRenews = false
        copy.gracePeriodExpiresDate = nil
        copy.billingRetryEnds = nil
        world.subscriptions[copyID] = copy
        guard var payload = world.transactions[copy.currentTransactionID] else { return }
        if payload.revocationDate == nil {
            payload.revocationDate = now
            payload.revocationReason = reason
            payload.revocationType = .familyRevoke
            payload.signedDate = now
            payload = try deliver(payload, holder: world.holders[payload.transactionID] ?? copy.account, appleID: copy.appleID, into: &outbox)
        }
        try notify(.revoke, transaction: payload, renewal: renewalInfo(of: copy), status: status(of: copy), into: &outbox)
    }
}
