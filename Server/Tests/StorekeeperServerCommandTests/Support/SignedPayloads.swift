import Foundation
import StorekeeperJSON
import StorekeeperSimulatedStore
import StorekeeperTestChain

/// Signed payloads from the test chain (fixed keys), and its root written where `--root` reads it.
struct SignedPayloads {
    static let bundleID = "com.example.game"
    static let signedDate = Date(timeIntervalSince1970: 1_767_225_600)

    let chain: TestCertificateChain
    let signer: SignedDataSigner

    init() throws {
        chain = try TestCertificateChain(options: .init(seed: 18))
        signer = SignedDataSigner(chain: chain)
    }

    /// The root as DER in `folder`, for `--root`.
    func writeRoot(in folder: URL, pem: Bool = false) throws -> String {
        let file = folder.appendingPathComponent(pem ? "root.pem" : "root.der")
        try (pem ? Data(chain.rootPEM.utf8) : Data(chain.rootDER)).write(to: file)
        return file.path
    }

    func transactionPayload(id: String = "2000000001", bundleID: String = bundleID, environment: AppStoreEnvironment = .sandbox) -> TransactionPayload {
        TransactionPayload(
            transactionID: id, bundleID: bundleID, productID: "com.example.game.gems.100", purchaseDate: Self.signedDate,
            type: .consumable, signedDate: Self.signedDate, environment: environment, price: 990, currency: "USD")
    }

    func transaction(id: String = "2000000001", bundleID: String = bundleID, environment: AppStoreEnvironment = .sandbox) throws -> String {
        try signer.sign(transactionPayload(id: id, bundleID: bundleID, environment: environment).json)
    }

    func notification(appAppleID: Int? = nil, environment: AppStoreEnvironment = .sandbox) throws -> String {
        try signer.sign(NotificationPayload(
            notificationType: .test, notificationUUID: UUID(), appAppleID: appAppleID, bundleID: Self.bundleID,
            environment: environment, signedDate: Self.signedDate
        ).json)
    }

    func renewalInfo() throws -> String {
        try signer.sign(RenewalInfoPayload(
            originalTransactionID: "2000000001", productID: "com.example.game.plus.monthly", signedDate: Self.signedDate,
            environment: .sandbox, renewalDate: Self.signedDate.addingTimeInterval(2_678_400)
        ).json)
    }

    /// `jws` with its payload replaced by `payload`, the signature kept: a forgery.
    func altered(_ jws: String, payload: JSONValue) throws -> String {
        try CompactJWS(parsing: jws).replacingPayload(payload).description
    }
}
