import Foundation
import Hummingbird
import StorekeeperCore
import StorekeeperServerStorage
import StorekeeperVerification

extension ServerRoutes {
    struct SignedTransactionBody: Decodable {
        var signedTransaction: String
    }

    struct KeptTransaction: Encodable {
        var transaction: String
        var product: String
        var originalTransaction: String
        var environment: String
    }

    /// `POST /v1/transactions`: verifies the signed transaction with the verifier of its
    /// environment, checks that its appAccountToken (when it has one) is the caller's,
    /// keeps it and applies its effects (grants once per transaction and balance, a
    /// subscription's state), then answers what was kept.
    @Sendable func postTransaction(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let body = try await RequestBody.decode(
            SignedTransactionBody.self, from: request, context: context, shape: #"{"signedTransaction": "<JWS>"}"#)
        let jws = body.signedTransaction
        let transaction: VerifiedTransaction
        do {
            transaction = try await configuration.verifiers.verifier(for: jws).verifyTransaction(jws)
        } catch {
            metrics.recordVerificationFailure(reason: error.reason.rawValue)
            if error.isRetryable { throw APIError.unavailable("the signed transaction cannot be verified now; try again later") }
            throw APIError(.unprocessableContent, "verification-failed", "\(error.reason.rawValue): \(error.message)")
        }
        if let token = transaction.appAccountToken, !token.isEmpty {
            guard UUID(uuidString: token) == AppAccountToken.derive(fromUser: user) else {
                throw APIError(.forbidden, "account-mismatch", "the transaction's appAccountToken is not the authenticated user's")
            }
        }
        let effects: [LedgerEffect]
        do {
            effects = try TransactionEffects.effects(of: transaction, payload: jws, user: user, policy: configuration.policy, now: now())
        } catch {
            metrics.recordVerificationFailure(reason: "incomplete")
            throw APIError(.unprocessableContent, "verification-failed", "incomplete: \(error.description)")
        }
        _ = try await storage.register(user: user, appAccountToken: AppAccountToken.derive(fromUser: user).uuidString.lowercased())
        var kept: StoredTransaction?
        for effect in effects {
            switch effect {
            case .transaction(let stored):
                // The transaction first: when it is another user's, nothing else may apply.
                if try await storage.keep(stored) == .ownedByAnotherUser {
                    switch configuration.restoreByAnotherUser {
                    case .keepWithOriginal:
                        throw APIError(.forbidden, "owned-by-another-user", "transaction '\(stored.transactionID)' is kept for another user")
                    }
                }
                kept = stored
            case .grant(let grant):
                _ = try await storage.apply(grant)
            case .subscription(let state):
                _ = try await storage.update(state)
            case .consumptionRequest:
                // A transaction never makes one; only notifications do.
                break
            }
        }
        guard let kept else { throw APIError(.internalServerError, "internal", "the transaction had nothing to keep") }
        return try JSONResponse.make(
            KeptTransaction(
                transaction: kept.transactionID, product: kept.productID, originalTransaction: kept.originalTransactionID,
                environment: kept.environment))
    }
}
