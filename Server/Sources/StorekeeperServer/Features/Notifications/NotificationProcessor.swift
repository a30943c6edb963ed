public import Foundation
public import Logging
import StorekeeperJSON
public import StorekeeperRuntime
public import StorekeeperServerStorage
public import StorekeeperVerification

/// Receives App Store Server Notifications V2 for one environment (one route
/// each: `POST /v1/notifications/production`, `/v1/notifications/sandbox`)
/// and applies them to the ledger exactly once.
///
/// For each body: the `signedPayload` is read (400 when malformed), the
/// notification and the transaction and renewal info it carries are verified
/// (400 naming the reason when refused, 503 when verification could not be
/// made now), the notification is stored by its `notificationUUID` before
/// anything else, its effects computed (``NotificationEffects``) and applied
/// with the mark that it is processed in one database transaction. The answer
/// is 200 only once that commit is made, or when a retry finds it made
/// before (then nothing changes twice); a storage failure is 503, so the App
/// Store retries it.
///
/// ```swift
/// let processor = NotificationProcessor(storage: storage, policy: policy, verifier: productionVerifier)
/// let answer = await processor.receive(body: requestBody)   // answer.status, answer.body
/// ```
public struct NotificationProcessor: Sendable {
    /// The largest body read, in bytes: a signed payload as large as the verifier takes, and its JSON wrapper.
    public static let maximumBodySize = SignedDataVerifier.maximumSize + 1_024

    let storage: any LedgerStorage
    let policy: CompiledPolicy
    let verifier: SignedDataVerifier
    let logger: Logger
    let now: @Sendable () -> Date

    /// A processor for the notifications `verifier`'s environment receives.
    ///
    /// - Parameters:
    ///   - storage: The ledger, migrated.
    ///   - policy: The catalog's compiled policy: what each product grants, which are subscriptions.
    ///   - verifier: The verifier of the route's environment (its bundle id, app Apple id, roots).
    ///   - logger: Where notifications that no user holds are reported (never a secret).
    ///   - now: The clock (tests set it).
    public init(
        storage: any LedgerStorage, policy: CompiledPolicy, verifier: SignedDataVerifier,
        logger: Logger = Logger(label: "storekeeper.notifications"), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.storage = storage
        self.policy = policy
        self.verifier = verifier
        self.logger = logger
        self.now = now
    }

    /// Receives one POST body, `{"signedPayload": "..."}`, and answers what the route answers.
    public func receive(body: [UInt8]) async -> NotificationAnswer {
        let signedPayload: String
        let input: NotificationEffects.Input
        do throws(Stop) {
            signedPayload = try Self.signedPayload(in: body)
            input = try await verified(signedPayload)
        } catch {
            return error.answer
        }
        let received = now()
        do {
            let stored = StoredNotification(
                notificationUUID: input.uuid, notificationType: input.type, subtype: input.subtype,
                environment: verifier.environment.rawValue, payload: signedPayload, receivedAt: received.timeIntervalSince1970)
            // Stored first: whatever fails next, the notification is kept for the retry and for operators.
            guard try await storage.receive(stored) != .processed else { return .acknowledged }
            let user = try await owner(of: input.transaction?.verified)
            if user == nil, let transaction = input.transaction?.verified {
                logger.warning(
                    "notification for a transaction no user holds: stored, its version kept until a user holds it",
                    metadata: [
                        "notificationUUID": "\(input.uuid)", "notificationType": "\(input.type)",
                        "transactionId": "\(transaction.transactionID ?? "")",
                        "originalTransactionId": "\(transaction.originalTransactionID ?? "")",
                    ])
            }
            let effects: [LedgerEffect]
            do {
                effects = try NotificationEffects.effects(of: input, user: user, policy: policy, now: received)
            } catch {
                return .refused(.notificationIncomplete, "the notification \(input.uuid) (\(input.type)): \(error)")
            }
            _ = try await storage.process(notificationUUID: input.uuid, effects: effects, at: now().timeIntervalSince1970)
            return .acknowledged
        } catch let error as StorageError {
            if case .invalidArgument(let why) = error {
                return .refused(.notificationIncomplete, "the notification \(input.uuid) (\(input.type)) cannot be kept: \(why)")
            }
            logger.error("notification not processed: \(error)", metadata: ["notificationUUID": "\(input.uuid)"])
            return .unavailable(.storageUnavailable, "the notification could not be stored or processed now (\(error)); send it again")
        } catch {
            logger.error("notification not processed: \(error)", metadata: ["notificationUUID": "\(input.uuid)"])
            return .unavailable(.storageUnavailable, "the notification could not be stored or processed now; send it again")
        }
    }

    // MARK: Steps

    /// The `signedPayload` member of the body.
    static func signedPayload(in body: [UInt8]) throws(Stop) -> String {
        guard body.count <= maximumBodySize else {
            throw Stop(.refused(.malformedNotification, "the body has \(body.count) bytes; at most \(maximumBodySize) are read"))
        }
        let value: JSONValue
        do {
            value = try JSONParser(maxDepth: 8, maxSize: maximumBodySize).parse(body)
        } catch {
            throw Stop(.refused(.malformedNotification, "the body is not JSON: \(error)"))
        }
        guard case .object(let members) = value else {
            throw Stop(.refused(.malformedNotification, "the body is not a JSON object; expected {\"signedPayload\": \"...\"}"))
        }
        guard let member = members.first(where: { $0.key == "signedPayload" }) else {
            throw Stop(.refused(.malformedNotification, "the body has no signedPayload; expected {\"signedPayload\": \"...\"}"))
        }
        guard case .string(let payload) = member.value, !payload.isEmpty else {
            throw Stop(.refused(.malformedNotification, "the body's signedPayload is not a non-empty string"))
        }
        return payload
    }

    /// The notification, and the transaction and renewal info it carries, each verified.
    private func verified(_ signedPayload: String) async throws(Stop) -> NotificationEffects.Input {
        let notification: VerifiedNotification
        do throws(VerificationFailure) {
            notification = try await verifier.verifyNotification(signedPayload)
        } catch {
            throw Stop(Self.answer(to: error, what: "the notification"))
        }
        guard let uuid = notification.notificationUUID, !uuid.isEmpty else {
            throw Stop(.refused(.notificationIncomplete, "the notification has no notificationUUID"))
        }
        guard let type = notification.notificationType, !type.isEmpty else {
            throw Stop(.refused(.notificationIncomplete, "the notification \(uuid) has no notificationType"))
        }
        var input = NotificationEffects.Input(
            uuid: uuid, type: type, subtype: notification.subtype, signedDate: notification.signedDate, status: notification.data?.status)
        if let jws = notification.data?.signedTransactionInfo {
            do throws(VerificationFailure) {
                input.transaction = (try await verifier.verifyTransaction(jws), jws)
            } catch {
                throw Stop(Self.answer(to: error, what: "the notification \(uuid)'s signedTransactionInfo"))
            }
        }
        if let jws = notification.data?.signedRenewalInfo {
            do throws(VerificationFailure) {
                input.renewal = try await verifier.verifyRenewalInfo(jws)
            } catch {
                throw Stop(Self.answer(to: error, what: "the notification \(uuid)'s signedRenewalInfo"))
            }
        }
        return input
    }

    /// The answer a step ended with, before anything was stored.
    struct Stop: Error {
        var answer: NotificationAnswer
        init(_ answer: NotificationAnswer) { self.answer = answer }
    }

    private static func answer(to failure: VerificationFailure, what: String) -> NotificationAnswer {
        if failure.isRetryable {
            return .unavailable(.verificationUnavailable, "\(what) could not be verified now (\(failure)); send it again")
        }
        return .refused(.notificationNotVerified, "\(what) was refused: \(failure)")
    }

    /// Whose ledger the transaction changes: the user its `appAccountToken` names (nil when no
    /// user has that token yet), else, for a transaction without one, the user
    /// who holds the transaction, or its original transaction (the same ownership: a family
    /// member's copy is not the purchaser's); nil when nobody does.
    private func owner(of transaction: VerifiedTransaction?) async throws -> String? {
        guard let transaction, let id = transaction.transactionID, !id.isEmpty else { return nil }
        if let token = transaction.appAccountToken?.lowercased(), !token.isEmpty {
            // The token decides: nobody registered with it yet means nobody holds it yet.
            return try await storage.account(appAccountToken: token)?.user
        }
        let original = transaction.originalTransactionID.flatMap { $0.isEmpty ? nil : $0 } ?? id
        let ownership = transaction.inAppOwnershipType.flatMap { $0.isEmpty ? nil : $0 } ?? StoredTransaction.purchased
        return try await storage.holder(of: id, originalTransactionID: original, ownership: ownership)
    }
}
