import Foundation
import StorekeeperSimulatedStore
import StorekeeperTestChain

/// The payloads verified: distinct signed transactions of every product type,
/// all from one test chain (as the App Store signs with one chain at a time).
struct SignedCorpus {
    static let bundleID = "com.example.benchmark"
    /// 2026-01-01T00:00:00Z.
    static let signedDate = Date(timeIntervalSince1970: 1_767_225_600)

    let chain: TestCertificateChain
    let payloads: [String]

    init(count: Int) throws {
        chain = try TestCertificateChain(options: .init(seed: 2_026))
        let signer = SignedDataSigner(chain: chain)
        let types: [AppStoreProductType] = [.consumable, .nonConsumable, .autoRenewableSubscription, .nonRenewingSubscription]
        payloads = try (0..<count).map { index in
            let type = types[index % types.count]
            let bought = Self.signedDate.addingTimeInterval(-Double(index % 86_400))
            let subscription = type == .autoRenewableSubscription || type == .nonRenewingSubscription
            return try signer.sign(TransactionPayload(
                transactionID: String(4_000_000_000 + index), bundleID: Self.bundleID, productID: "com.example.benchmark.product\(index % 50)",
                purchaseDate: bought, expiresDate: subscription ? bought.addingTimeInterval(2_678_400) : nil, type: type,
                appAccountToken: UUID(), signedDate: Self.signedDate, environment: .sandbox, price: 990, currency: "USD"
            ).json)
        }
    }
}
