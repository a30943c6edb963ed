import Crypto
import StorekeeperChildProcess
import Foundation
import StorekeeperSimulatedStore
import StorekeeperTestChain

/// The payloads and dates the oracle tests sign.
enum OracleFixtures {
    static let bundleID = "com.example.signing"
    /// When the payloads are signed: 2026-01-01T00:00:00Z, inside the default chain's validity.
    static let signedDate = Date(timeIntervalSince1970: 1_767_225_600)
    static let token = UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138")

    /// One transaction of each product type, as the App Store writes them (a
    /// subscription's renewal for the auto-renewable one), with every field
    /// this library writes somewhere among them.
    static func transactions(environment: AppStoreEnvironment = .sandbox) -> [TransactionPayload] {
        let bought = signedDate.addingTimeInterval(-3_600)
        return [
            TransactionPayload(
                transactionID: "2000000001", bundleID: bundleID, productID: "com.example.signing.coins", purchaseDate: bought,
                quantity: 3, type: .consumable, appAccountToken: token, signedDate: signedDate, environment: environment,
                price: 990, currency: "USD"),
            TransactionPayload(
                transactionID: "2000000002", bundleID: bundleID, productID: "com.example.signing.pro", purchaseDate: bought,
                type: .nonConsumable, ownership: .familyShared, signedDate: signedDate, revocationReason: .appIssue,
                revocationDate: signedDate.addingTimeInterval(-60), environment: environment, storefront: "FRA", storefrontID: "143442"),
            TransactionPayload(
                transactionID: "2000000004", originalTransactionID: "2000000003", webOrderLineItemID: "12000000004", bundleID: bundleID,
                productID: "com.example.signing.plus.monthly", subscriptionGroupIdentifier: "premium", purchaseDate: bought,
                originalPurchaseDate: bought.addingTimeInterval(-2_678_400), expiresDate: bought.addingTimeInterval(2_678_400),
                type: .autoRenewableSubscription, appAccountToken: token, signedDate: signedDate, environment: environment,
                reason: .renewal, price: 4_990, currency: "EUR"),
            TransactionPayload(
                transactionID: "2000000005", bundleID: bundleID, productID: "com.example.signing.pass.spring",
                subscriptionGroupIdentifier: "passes", purchaseDate: bought, expiresDate: bought.addingTimeInterval(7_776_000),
                type: .nonRenewingSubscription, signedDate: signedDate, environment: environment),
        ]
    }

    /// StoreKit's appAccountToken of a user as docs/server-contract.md
    /// derives it: a name-based UUID, version 5 (SHA-1), in the contract's
    /// namespace, of the user id's UTF-8 bytes (RFC 9562 section 5.5). The
    /// oracle checks it against Python's `uuid.uuid5`.
    static func appAccountToken(forUser user: String) -> UUID {
        let namespace: [UInt8] = [0x16, 0x40, 0x7a, 0xeb, 0xf4, 0x3d, 0x41, 0x13, 0xb0, 0xdb, 0x9a, 0xba, 0xe2, 0x96, 0xbe, 0xca]
        var bytes = Array(Insecure.SHA1.hash(data: namespace + Array(user.utf8))).prefix(16)
        bytes[6] = (bytes[6] & 0x0f) | 0x50
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let b = Array(bytes)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}

extension OracleFixtures {
    /// Python's `uuid.uuid5` of `user` in the server contract's namespace: the
    /// token a server derives, to compare the signed payloads' with.
    static func pythonUUID5(_ user: String) throws -> String {
        let script = "import sys, uuid; print(uuid.uuid5(uuid.UUID('16407aeb-f43d-4113-b0db-9abae296beca'), sys.argv[1]), end='')"
        let run = try ChildProcess("/usr/bin/env", ["python3", "-c", script, user], standardOutput: .capture(limit: 1 << 16),
                                   standardError: .capture(limit: 1 << 16)).run(timeout: .seconds(60))
        guard run.termination == .exited(0) else {
            throw AppStoreOracle.Failure(description: "python3 uuid5 \(run.termination): \(String(decoding: run.standardError, as: UTF8.self))")
        }
        return String(decoding: run.standardOutput, as: UTF8.self)
    }
}
