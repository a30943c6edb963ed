import Foundation
import StorekeeperCore
import StorekeeperSimulatedStore
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

/// The faulty delivery of the random lives keeps its promises whatever its faults: no notification is ever
/// lost (Apple retries until answered), the first transaction of an original without appAccountToken is
/// always posted by the device that received it (else nobody could know whose it is), nothing is sent while
/// the server is down, and a checkpoint's flush leaves nothing waiting. Checked over many seeds with every
/// fault at high rates.
@Suite struct FaultyDeliveryTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)
    static let stormy = DeliveryFaults(
        duplicate: 0.5, delay: 0.5, lostAttempt: 0.5, postAfterNotification: 0.5, staleCopy: 0.5, serverDown: 0.3, deviceOff: 0.4,
        maximumDelay: 4)

    static func transaction(_ id: String, original: String, token: Bool, signed: TimeInterval, revoked: Bool = false) -> TransactionPayload {
        TransactionPayload(
            transactionID: id, originalTransactionID: original, bundleID: "com.example.storemodel", productID: "com.example.storemodel.pro",
            purchaseDate: start, type: .nonConsumable, appAccountToken: token ? AppAccountToken.derive(fromUser: "account-1") : nil,
            signedDate: start.addingTimeInterval(signed), revocationDate: revoked ? start.addingTimeInterval(signed) : nil, environment: .sandbox)
    }

    static func device(_ payload: TransactionPayload) -> StoreMessage {
        .transaction(DeviceTransaction(appleID: "apple-id-1", account: "account-1", signed: "jws-\(payload.transactionID)-\(payload.signedDate.timeIntervalSince1970)", payload: payload))
    }

    static func notification(_ uuid: Int, about payload: TransactionPayload) -> StoreMessage {
        let notification = NotificationPayload(
            notificationType: .refund, notificationUUID: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", uuid)) ?? UUID(),
            bundleID: "com.example.storemodel", environment: .sandbox, signedDate: payload.signedDate)
        return .notification(ServerNotification(signedPayload: "notification-\(uuid)", payload: notification, transaction: payload, renewal: nil))
    }

    @Test(arguments: 0..<200)
    func nothingThatMustArriveIsLostAndNothingIsSentWhileDown(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var delivery = FaultyDelivery(faults: Self.stormy)
        var sent: [String] = []
        var down = false
        var mustArrive: Set<String> = []
        for step in 0..<12 {
            var messages: [StoreMessage] = []
            // A purchase without token (must be posted), its refund later (may be missed by an off device), a notification each.
            let bought = Self.transaction("t\(step)", original: "t\(step)", token: false, signed: Double(step))
            let refunded = Self.transaction("t\(step)", original: "t\(step)", token: false, signed: Double(step) + 0.5, revoked: true)
            messages = [Self.device(bought), Self.notification(step, about: refunded), Self.device(refunded)]
            mustArrive.insert(#"{"signedTransaction":"jws-t\#(step)-\#(bought.signedDate.timeIntervalSince1970)"}"#)
            mustArrive.insert(#"{"signedPayload":"notification-\#(step)"}"#)
            _ = delivery.receive(messages, step: step, random: &random)
            for event in delivery.due(step: step, random: &random) {
                switch event {
                case .serverDown: down = true
                case .serverUp: down = false
                case .deliver(let item):
                    #expect(!down, "seed \(seed): \(item.line) sent while the server is down")
                    sent.append(item.body)
                default: break
                }
            }
        }
        for event in delivery.flush(random: &random) {
            if case .deliver(let item) = event { sent.append(item.body) }
            if case .serverDown = event { Issue.record("seed \(seed): a flush takes the server down") }
        }
        #expect(delivery.waiting == 0, "seed \(seed)")
        #expect(!delivery.serverIsDown, "seed \(seed)")
        let missing = mustArrive.subtracting(sent)
        #expect(missing.isEmpty, "seed \(seed): never delivered: \(missing.sorted())")
    }

    @Test func withoutFaultsEveryMessageIsSentOnceInOrderAtItsStep() {
        var random = SplitMix64(seed: 7)
        var delivery = FaultyDelivery(faults: .none)
        let bought = Self.transaction("t1", original: "t1", token: true, signed: 0)
        _ = delivery.receive([Self.device(bought), Self.notification(1, about: bought)], step: 0, random: &random)
        let bodies = delivery.due(step: 0, random: &random).compactMap { event -> String? in
            if case .deliver(let item) = event { item.body } else { nil }
        }
        #expect(bodies.sorted() == [#"{"signedPayload":"notification-1"}"#, #"{"signedTransaction":"jws-t1-1767225600.0"}"#])
        #expect(delivery.waiting == 0)
    }
}
