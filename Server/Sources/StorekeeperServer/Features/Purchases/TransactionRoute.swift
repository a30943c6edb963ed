import Foundation
import Hummingbird
import StorekeeperContract
import StorekeeperCore
import StorekeeperServerStorage
import StorekeeperVerification

extension ServerRoutes {
    /// `POST /v1/transactions`: verifies the signed transaction with the verifier of its
    /// environment, checks that its appAccountToken (when it has one) is the caller's,
    /// keeps it and applies its effects (grants once per transaction and balance, a
    /// subscription's state), then answers what was kept.
    @Sendable func postTransaction(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let body = try await request.decode(as: SignedTransactionBody.self, context: context)
        let jws = body.signedTransaction
        let transaction: VerifiedTransaction
        do {
            transaction = try await configuration.verifiers.verifier(for: jws).verifyTransaction(jws)
        } catch {
            metrics.recordVerificationFailure(reason: error.reason.rawValue)
            if error.isRetryable { throw APIError.unavailable("the signed transaction cannot be verified now; try again later") }
            throw APIError(.unprocessableContent, .verificationFailed, "\(error.reason.rawValue): \(error.message)")
        }
        if let token = transaction.appAccountToken, !token.isEmpty {
            guard UUID(uuidString: token) == AppAccountToken.derive(fromUser: user) else {
                throw APIError(.forbidden, .accountMismatch, "the transaction's appAccountToken is not the authenticated user's")
            }
        }
        let effects: [LedgerEffect]
        do {
            effects = try TransactionEffects.effects(of: transaction, payload: jws, user: user, policy: configuration.policy, now: now())
        } catch {
            metrics.recordVerificationFailure(reason: "incomplete")
            throw APIError(.unprocessableContent, .verificationFailed, "incomplete: \(error.description)")
        }
        let kept = try await keep(effects, for: user)
        return try context.answer(
            to: request,
            KeptTransactionBody(
                transaction: kept.transactionID, product: kept.productID, originalTransaction: kept.originalTransactionID,
                environment: kept.environment))
    }
}

extension ServerRoutes {
    /// The purchases feature, under `/v1` behind client authentication: `POST transactions`
    /// (signed transactions) and `POST receipts/verify` (receipts).
    var purchaseRoutes: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        routes.post("transactions", use: postTransaction)
        routes.post("receipts/verify", use: verifyReceipt)
        return routes
    }
}
