import Foundation
import Hummingbird
import Logging
import StorekeeperContract
import StorekeeperCore
import StorekeeperServerStorage
import StorekeeperVerification

extension ServerRoutes {
    /// `POST /v1/receipts/verify`: asks the App Store's `verifyReceipt` (through
    /// ``ServerConfiguration/receipts``) whether the receipt is valid and proves
    /// the transaction named, for the product named, and keeps that purchase for
    /// the caller as a signed transaction would be kept. Valid: 200 with what was
    /// kept. Not valid: 403 `receipt-not-valid` with Apple's meaning (a receipt of
    /// an environment the server does not accept included: sandbox never counts as
    /// production); 403 `account-mismatch` when the purchase's `app_account_token`
    /// is another user's. No verdict now: 503 `unavailable`, so the app's queue
    /// tries again; the server's own request refused (21000, 21004): 503
    /// `receipts-misconfigured` and an error in the log for the operator. Without a
    /// forwarder: 404 `receipts-not-configured`.
    @Sendable func verifyReceipt(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        guard let forwarder = configuration.receipts else {
            throw APIError(.notFound, .receiptsNotConfigured, "this server does not verify receipts; send StoreKit 2's signed transaction to POST /v1/transactions")
        }
        let body = try await request.decode(as: ReceiptVerificationBody.self, context: context)
        guard let receipt = body.receipt, !receipt.isEmpty else {
            throw APIError(.forbidden, .receiptNotValid, "transaction '\(body.transaction)' came without a receipt; there is nothing to verify")
        }
        let accepted = Set(configuration.verifiers.environments.compactMap(Self.receiptEnvironment))
        let valid: ValidReceipt
        switch await forwarder.verify(receiptData: receipt, accepting: accepted) {
        case .valid(let answer):
            valid = answer
        case .refused(let status, let meaning):
            metrics.recordVerificationFailure(reason: "receipt-refused")
            throw APIError(.forbidden, .receiptNotValid, status.map { "the App Store answered \($0): \(meaning)" } ?? meaning)
        case .environmentNotAccepted(let environment, _):
            metrics.recordVerificationFailure(reason: "receipt-environment")
            throw APIError(
                .forbidden, .receiptNotValid,
                "the receipt is from the App Store's \(environment) environment, which this server does not accept (it accepts \(accepted.map(\.rawValue).sorted().joined(separator: " and "))); a sandbox purchase never counts as production")
        case .unavailable(let status, let reason):
            context.logger.warning("verifyReceipt gave no verdict", metadata: ["status": .string(status.map(String.init) ?? "none"), "reason": .string(reason)])
            throw APIError.unavailable("the App Store cannot verify the receipt now; try again later")
        case .misconfigured(let status, let meaning):
            // https://developer.apple.com/documentation/appstorereceipts/status (21000, 21004)
            context.logger.error(
                "verifyReceipt refused the server's request: fix the server's receipt settings (receipt-shared-secret, verify-receipt-url)",
                metadata: ["status": .string(String(status)), "meaning": .string(meaning)])
            throw APIError(
                .serviceUnavailable, .receiptsMisconfigured,
                "this server cannot verify receipts until its operator fixes its configuration; try again later")
        }
        if let bundleID = valid.bundleID, !configuration.verifiers.bundleIDs.contains(bundleID) {
            throw APIError(.forbidden, .receiptNotValid, "the receipt is another app's (bundle id '\(bundleID)')")
        }
        guard let purchase = valid.purchases.first(where: { $0.transactionID == body.transaction }) else {
            throw APIError(.forbidden, .receiptNotValid, "the receipt does not prove transaction '\(body.transaction)'")
        }
        guard purchase.productID == body.product else {
            throw APIError(
                .forbidden, .receiptNotValid,
                "transaction '\(body.transaction)' in the receipt is of product '\(purchase.productID)', not '\(body.product)'")
        }
        // The same rule as a signed transaction's appAccountToken (POST /v1/transactions).
        if let token = purchase.appAccountToken {
            guard UUID(uuidString: token) == AppAccountToken.derive(fromUser: user) else {
                throw APIError(.forbidden, .accountMismatch, "the purchase's app_account_token is not the authenticated user's")
            }
        }
        let effects = TransactionEffects.effects(of: purchase, environment: valid.environment, user: user, policy: configuration.policy, now: now())
        let kept = try await keep(effects, for: user)
        return try context.answer(
            to: request,
            KeptTransactionBody(transaction: kept.transactionID, product: kept.productID, originalTransaction: kept.originalTransactionID, environment: kept.environment))
    }

    /// The receipt forwarder's name of a signed data environment; nil for Xcode, which has no verifyReceipt.
    static func receiptEnvironment(_ environment: SignedDataVerifier.Environment) -> ReceiptForwarder.Configuration.Environment? {
        switch environment {
        case .production: .production
        case .sandbox: .sandbox
        default: nil
        }
    }
}
