import Foundation
import StorekeeperCore
import StorekeeperJSON
import StorekeeperServer
import StorekeeperSimulatedStore
import StorekeeperTestChain

/// Distinct signed purchases, each a consumable of the daily-planet catalog bought by a user of its
/// own, with that user's client token: a request body and its Authorization header.
struct SignedPurchases {
    static let tokenSecret = "load-test-client-token-secret-0123456789abcdef"
    static let bundleID = "com.example.dailyplanet"
    static let productID = "com.example.dailyplanet.gifts.10"

    struct Request: Sendable {
        var body: String
        var authorization: String
    }

    let chain: TestCertificateChain
    let requests: [Request]

    init(count: Int) throws {
        chain = try TestCertificateChain(options: .init(seed: 1_000))
        let signer = SignedDataSigner(chain: chain)
        let secret = try ClientTokenSecret(Self.tokenSecret)
        let bought = Date(timeIntervalSince1970: 1_767_225_600)
        let expiry = Date().addingTimeInterval(86_400)
        let writer = JSONWriter(indentation: nil)
        var requests: [Request] = []
        requests.reserveCapacity(count)
        for index in 0..<count {
            let user = "load-user-\(index)"
            let payload = TransactionPayload(
                transactionID: String(4_000_000_000 + index), bundleID: Self.bundleID, productID: Self.productID, purchaseDate: bought,
                type: .consumable, appAccountToken: AppAccountToken.derive(fromUser: user), signedDate: bought, environment: .sandbox)
            let body = writer.serialize(["signedTransaction": .string(try signer.sign(payload.json))])
            let token = try ClientToken.issue(user: user, expiresAt: expiry, secret: secret)
            requests.append(Request(body: body, authorization: "Bearer \(token)"))
        }
        self.requests = requests
    }
}
