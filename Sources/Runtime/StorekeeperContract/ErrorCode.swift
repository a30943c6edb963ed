/// The error codes Storekeeper's servers give (`storekeeper-server` and the
/// simulated server), in the error body's `code` (docs/server-contract.md).
/// A client matches these; a server of a team's own may give others, which
/// ``ServerErrorBody/code`` keeps as they are.
public enum ErrorCode: String, Sendable, Hashable, CaseIterable, Codable {
    /// 400: the request's body or path is not what the route reads.
    case badRequest = "bad-request"
    /// 401: no credential, or one that is expired or not valid.
    case unauthenticated
    /// 403: the transaction's appAccountToken, or the receipt's, is another user's.
    case accountMismatch = "account-mismatch"
    /// 403: the record names a user who is not the authenticated user.
    case userMismatch = "user-mismatch"
    /// 403: the receipt is not valid, or does not prove the transaction.
    case receiptNotValid = "receipt-not-valid"
    /// 403: content of a product the user does not own.
    case notOwned = "not-owned"
    /// 403: the transaction is kept for another user.
    case ownedByAnotherUser = "owned-by-another-user"
    /// 404: no such route or resource.
    case notFound = "not-found"
    /// 404: no content file at that path.
    case noSuchContent = "no-such-content"
    /// 404: no such transaction (operator routes).
    case noSuchTransaction = "no-such-transaction"
    /// 404: no such user (operator routes).
    case noSuchUser = "no-such-user"
    /// 404: the server does not verify receipts.
    case receiptsNotConfigured = "receipts-not-configured"
    /// 405: the path does not take this method.
    case methodNotAllowed = "method-not-allowed"
    /// 409: the user keeps as many records as the server keeps for one user.
    case tooManyRecords = "too-many-records"
    /// 409: the spend key was used with another body; nothing was spent.
    case spendKeyReused = "spend-key-reused"
    /// 409: the balance's net is below the amount; nothing was spent.
    case insufficientBalance = "insufficient-balance"
    /// 413: the request's body is larger than the server accepts.
    case bodyTooLarge = "body-too-large"
    /// 416: the range starts at or past the end of the content.
    case rangeNotSatisfiable = "range-not-satisfiable"
    /// 422: the signed transaction did not verify.
    case verificationFailed = "verification-failed"
    /// 501: the simulated server was made without what the route needs.
    case notConfigured = "not-configured"
    /// 500: the server failed; the failure is in its log.
    case `internal`
    /// 503: the server cannot answer now; try again later.
    case unavailable
    /// 503: the server's storage cannot keep or read now; try again later.
    case storageUnavailable = "storage-unavailable"
    /// 503: the verifier cannot decide now (a revocation check could not be made).
    case verificationUnavailable = "verification-unavailable"
    /// 400, to the App Store: the notification is not the documented signed payload.
    case malformedNotification = "malformed-notification"
    /// 400, to the App Store: the notification verified but lacks what the ledger needs.
    case notificationIncomplete = "notification-incomplete"
    /// 400, to the App Store: the notification's signature did not verify.
    case notificationNotVerified = "notification-not-verified"
    /// 503: the server's own request to the App Store was refused (its configuration).
    case receiptsMisconfigured = "receipts-misconfigured"
}
