import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// The simulated server's own reading of the contract's wire format
/// (docs/server-contract.md), kept apart from the client's (`RecordJSON` in
/// StorekeeperQueue) so that the server checks the client against the
/// document rather than against itself.
enum ServerWire {
    /// The record object, as the document describes it.
    struct Record: Codable {
        var product: String
        var transaction: String
        var strategy: String
        var kind: String
        var quantity: Int?
        var receipt: String?
        var user: String?
        var purchaseDate: Double
        var expirationDate: Double?

        init(_ record: StoredRecord) {
            product = record.productID
            transaction = record.transactionID
            strategy = record.strategy.rawValue
            user = record.applicationUsername
            purchaseDate = record.purchaseDate.timeIntervalSince1970
            expirationDate = record.expirationDate?.timeIntervalSince1970
            switch record.value {
            case .flag:
                kind = "flag"
            case let .receipt(bytes):
                kind = "receipt"
                receipt = Data(bytes).base64EncodedString()
            case let .transaction(_, count):
                kind = "transaction"
                quantity = count
            }
        }

        /// The record, or `nil` when the object breaks the document's rules.
        var record: StoredRecord? {
            guard !product.isEmpty, let strategy = PersistenceStrategy(rawValue: strategy) else { return nil }
            let value: PersistenceRecord.Value
            switch (kind, quantity, receipt) {
            case ("flag", nil, nil):
                value = .flag
            case let ("receipt", nil, text?):
                guard let bytes = Data(base64Encoded: text) else { return nil }
                value = .receipt(Array(bytes))
            case let ("transaction", count?, nil):
                value = .transaction(id: transaction, quantity: count)
            default:
                return nil
            }
            return StoredRecord(strategy: strategy, productID: product, value: value, transactionID: transaction,
                                applicationUsername: user, purchaseDate: Date(timeIntervalSince1970: purchaseDate),
                                expirationDate: expirationDate.map { Date(timeIntervalSince1970: $0) })
        }
    }

    /// The body of `GET /v1/entitlements`.
    struct Entitlements: Encodable {
        struct Subscription: Encodable {
            var product: String
            var expirationDate: Double
            var status: String
        }
        var features: [String]
        var balances: [String: Int]
        var subscriptions: [Subscription]
        var products: [String]
    }

    /// The members of a signed transaction's payload the server reads
    /// (App Store Server API's JWSTransactionDecodedPayload).
    struct SignedPayload: Decodable {
        var transactionId: String
        var originalTransactionId: String?
        var productId: String
        var environment: String?
        var appAccountToken: String?
        var quantity: Int?
        var expiresDate: Double?
    }

    /// The payload of a JWS in compact serialization (three Base64URL parts),
    /// decoded but not verified; `nil` when it is not one.
    static func payload(ofJWS text: String) -> SignedPayload? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[2].isEmpty else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let bytes = Data(base64Encoded: base64) else { return nil }
        return try? JSONDecoder().decode(SignedPayload.self, from: bytes)
    }
}
