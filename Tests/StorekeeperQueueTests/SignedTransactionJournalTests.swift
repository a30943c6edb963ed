import Foundation
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import Testing

/// A StoreKit 2 transaction's signed form (its JWS) travels with its plan
/// through the journal: a plan resumed at the next launch, which the store
/// does not deliver again or whose redelivery the journal ignores as a
/// duplicate, still sends the JWS to `POST /v1/transactions`.
@Suite struct SignedTransactionJournalTests {
    typealias H = DeliveryHarness

    /// A compact JWS whose payload names the transaction and product (the
    /// simulated server reads it; it checks no signature).
    static func jws(transaction: String, product: String) -> String {
        func part(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return part(#"{"alg":"ES256"}"#) + "." + part(#"{"transactionId":"\#(transaction)","productId":"\#(product)","quantity":1}"#)
            + "." + part("signature")
    }

    @Test func aPlanResumedFromTheJournalStillSendsTheSignedTransaction() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("daily-planet", trace: trace)
        let product = try #require(policy.products.first { H.plan(of: $0, .purchased, in: policy).first == "verify-receipt" })
        let signed = Self.jws(transaction: "a", product: product.id)
        var purchase = H.transaction("a", product, .purchased)
        purchase.info.receipt = nil
        purchase.info.signedTransaction = signed

        // The server cannot be reached: the plan stops at verify-receipt, journalled.
        let world = try H.World(trace: trace, retry: H.quickRetry)
        world.server.setOffline(true)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { _ in true }
        try await H.eventually { await !world.log.deliveryFailures(of: "a").isEmpty }
        await queue.stop()
        #expect(world.server.requests.isEmpty, "nothing reached the server while it was offline")

        // The next launch: the store delivers nothing again; the journal's plan resumes.
        world.server.setOffline(false)
        let relaunch = try H.World(trace: trace, store: ScriptedStore(), server: world.server, folder: world.folder, retry: H.quickRetry)
        let resumed = try relaunch.queue(policy)
        try await resumed.start(observers: [relaunch.log])
        await resumed.retryNow()
        try await H.settle(resumed, relaunch.log) { $0.contains { if case .removed(let info) = $0 { info.id == "a" } else { false } } }
        let verifications = world.server.requests.filter { $0.path == "/v1/transactions" || $0.path == "/v1/receipts/verify" }
        #expect(verifications.map(\.path) == ["/v1/transactions"])
        #expect(verifications.first.map { String(decoding: $0.body, as: UTF8.self).contains(signed) } == true)
        await resumed.stop()
    }
}
