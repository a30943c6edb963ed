import Foundation
import Hummingbird
import StorekeeperServerStorage

extension ServerRoutes {
    struct ReceiptBody: Decodable {
        var product: String
        var receipt: String?
        var transaction: String
    }

    struct ProvenTransaction: Encodable {
        var transaction: String
        var product: String
        var originalTransaction: String
        var environment: String
    }

    /// `POST /v1/receipts/verify`: asks the App Store's `verifyReceipt` (through
    /// ``ServerConfiguration/receipts``) whether the receipt is valid and proves
    /// the transaction named, for the product named, and keeps that purchase for
    /// the caller as a signed transaction would be kept. Valid: 200 with what was
    /// kept. Not valid: 403 `receipt-not-valid` with Apple's meaning. No verdict
    /// now: 503, so the app's queue tries again.
    @Sendable func verifyReceipt(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let body = try await RequestBody.decode(
            ReceiptBody.self, from: request, context: context,
            shape: #"{"product": "<product id>", "receipt": "<Base64>" or null, "transaction": "<transaction id>"}"#)
        guard let forwarder = configuration.receipts else {
            throw APIError(.notFound, "receipts-not-configured", "this server does not verify receipts; send StoreKit 2's signed transaction to POST /v1/transactions")
        }
        guard let receipt = body.receipt, !receipt.isEmpty else {
            throw APIError(.forbidden, "receipt-not-valid", "transaction '\(body.transaction)' came without a receipt; there is nothing to verify")
        }
        let valid: ValidReceipt
        switch await forwarder.verify(receiptData: receipt) {
        case .valid(let answer):
            valid = answer
        case .refused(let status, let meaning):
            metrics.recordVerificationFailure(reason: "receipt-refused")
            throw APIError(.forbidden, "receipt-not-valid", status.map { "the App Store answered \($0): \(meaning)" } ?? meaning)
        case .unavailable(let status, let reason):
            context.logger.warning("verifyReceipt gave no verdict", metadata: ["status": .string(status.map(String.init) ?? "none"), "reason": .string(reason)])
            throw APIError.unavailable("the App Store cannot verify the receipt now; try again later")
        }
        if let bundleID = valid.bundleID, !configuration.verifiers.bundleIDs.contains(bundleID) {
            throw APIError(.forbidden, "receipt-not-valid", "the receipt is another app's (bundle id '\(bundleID)')")
        }
        guard let purchase = valid.purchases.first(where: { $0.transactionID == body.transaction }) else {
            throw APIError(.forbidden, "receipt-not-valid", "the receipt does not prove transaction '\(body.transaction)'")
        }
        guard purchase.productID == body.product else {
            throw APIError(
                .forbidden, "receipt-not-valid",
                "transaction '\(body.transaction)' in the receipt is of product '\(purchase.productID)', not '\(body.product)'")
        }
        let effects = TransactionEffects.effects(of: purchase, environment: valid.environment, user: user, policy: configuration.policy, now: now())
        let kept = try await keep(effects, for: user)
        return try JSONResponse.make(
            ProvenTransaction(transaction: kept.transactionID, product: kept.productID, originalTransaction: kept.originalTransactionID, environment: kept.environment))
    }
}
