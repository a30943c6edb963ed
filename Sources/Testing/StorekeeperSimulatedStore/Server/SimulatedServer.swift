public import Foundation
public import StorekeeperCore
public import StorekeeperQueue
public import StorekeeperRuntime

/// The app's server, simulated: an in-process implementation of exactly the
/// HTTP contract in `docs/server-contract.md` (v1), for simulations, for
/// tests of `ServerRecordStore` and of the queue, and behind the loopback
/// HTTP server of StorekeeperHTTP's tests.
///
/// - Every route needs `Authorization: Bearer` with a credential the server
///   issued (``credential(for:)``), else 401; the credential names the user,
///   and a user reads and changes only their own purchases.
/// - `PUT /v1/records/{transactionID}` keeps the body's record for the user
///   under the percent-decoded id (201 when new, 200 when it replaces one);
///   a body that is not a record object, or names another transaction, is
///   400; one whose `user` is someone else is 403 `user-mismatch`.
/// - `GET /v1/records` answers `{"records": [...]}`, the user's, ordered by
///   transaction id.
/// - `POST /v1/receipts/verify` answers 200 for a well-formed body whose
///   `receipt` is non-empty Base64, 403 (not valid) for a null or empty one,
///   400 for a malformed body.
/// - `POST /v1/transactions` reads the signed transaction's payload
///   *without verifying its signature* (a simulation has no App Store
///   certificates): 422 `verification-failed` when it is not a JWS with a
///   transaction payload, 403 `account-mismatch` when its appAccountToken is
///   not the user's.
/// - `GET /v1/account`, `GET /v1/entitlements`, `PUT /v1/spends/{key}` and
///   `GET /v1/content/{path}` (with `Range: bytes=N-` and `If-Range`) as the
///   document says; balances are what ``grant(_:of:to:)`` gave plus what the
///   policy's products grant for the user's purchases, less spends.
/// - Other paths are 404, other methods on these paths 405; errors carry the
///   contract's `{"error": {"code", "message"}}` body.
/// - While offline, every request fails transiently, as a transport that
///   cannot reach its server does.
///
/// As a `ServerTransport` it is also the app's side: ``send(_:)`` adds the
/// credential of the user signed in (``signIn(as:)``; ``defaultUser`` at
/// first), as an HTTP transport would. ``respond(to:)`` is the server's side
/// alone, for a front end that reads the credential from the wire. Every
/// request is counted and logged, including those it fails on purpose.
public final class SimulatedServer: ServerTransport, Sendable {
    /// What the lock guards.
    private struct State {
        var ledger: ServerLedger
        var clientUser: String?
        var clientCredential: String?
        var log: [ServerRequest] = []
        var failuresLeft = 0
        var failureStatus = 503
        var scripted: [ServerResponse] = []
        var offline = false
    }

    private let state: Locked<State>
    private let now: @Sendable () -> Date

    /// The user ``send(_:)`` is signed in as unless told otherwise.
    public static let defaultUser = "simulated-user"

    /// A server with no records, whose in-process client is signed in as `user`.
    ///
    /// - Parameters:
    ///   - user: The user ``send(_:)`` authenticates as.
    ///   - policy: The products, from which entitlements and balances are
    ///     derived (features unlocked, balances granted, which products are
    ///     consumables); without one, entitlements list product ids only.
    ///   - appAccountToken: How a user's appAccountToken is derived (by
    ///     default the contract's: `AppAccountToken.derive(fromUser:)`); nil:
    ///     `GET /v1/account` is 501 `not-configured` and appAccountTokens in
    ///     signed transactions are not checked.
    ///   - now: The clock that says which subscriptions are current.
    public init(user: String = SimulatedServer.defaultUser, policy: CompiledPolicy? = nil,
                appAccountToken: (@Sendable (String) -> UUID)? = { AppAccountToken.derive(fromUser: $0) }, now: @escaping @Sendable () -> Date = { Date() }) {
        var ledger = ServerLedger(policy: policy, appAccountToken: appAccountToken)
        let credential = ledger.issueCredential(for: user)
        state = Locked(State(ledger: ledger, clientUser: user, clientCredential: credential))
        self.now = now
    }

    // MARK: Accounts

    /// A new credential for `user`, which the server accepts as that user
    /// until ``expire(_:)``.
    public func credential(for user: String) -> String {
        state.withLock { state in state.ledger.issueCredential(for: user) }
    }

    /// Stops accepting `credential`: requests with it are 401 from now on.
    public func expire(_ credential: String) {
        _ = state.withLock { state in state.ledger.credentials.removeValue(forKey: credential) }
    }

    /// Signs the in-process client (``send(_:)``) in as `user` with a new
    /// credential, or out (`nil`: its requests carry none, and are 401).
    public func signIn(as user: String?) {
        state.withLock { state in
            state.clientUser = user
            state.clientCredential = user.map { state.ledger.issueCredential(for: $0) }
        }
    }

    /// The user ``send(_:)`` is signed in as.
    public var signedInUser: String? { state.withLock { state in state.clientUser } }

    // MARK: What it holds

    /// The records kept for the signed-in user, by transaction id.
    public var records: [String: StoredRecord] {
        state.withLock { state in state.clientUser.flatMap { state.ledger.records[$0] } ?? [:] }
    }

    /// The records kept for `user`, by transaction id.
    public func records(of user: String) -> [String: StoredRecord] {
        state.withLock { state in state.ledger.records[user] ?? [:] }
    }

    /// The spends the signed-in user made, by key: the balance and the amount.
    public var spends: [String: (balance: String, amount: Int)] {
        state.withLock { state in (state.clientUser.flatMap { state.ledger.spends[$0] } ?? [:]).mapValues { ($0.balance, $0.amount) } }
    }

    /// Adds `amount` to `user`'s server-kept `balance`, as a purchase the
    /// server knows of would (for tests of spends).
    public func grant(_ amount: Int, of balance: String, to user: String) {
        state.withLock { state in state.ledger.granted[user, default: [:]][balance, default: 0] += amount }
    }

    /// `user`'s `balance`: grants less spends, never below zero.
    public func balance(_ balance: String, of user: String) -> Int {
        state.withLock { state in state.ledger.balance(balance, of: user) }
    }

    /// Revokes a transaction (a refund): it no longer counts, for
    /// entitlements, balances or content.
    public func revoke(transaction id: String) {
        _ = state.withLock { state in state.ledger.revoked.insert(id) }
    }

    /// Serves `bytes` at `GET /v1/content/{path}` to the owners of `product`,
    /// with a new ETag (so a download in progress starts over).
    public func publish(_ bytes: [UInt8], at path: String, for product: String) {
        state.withLock { state in
            state.ledger.published += 1
            state.ledger.content[path] = .init(bytes: bytes, product: product, etag: "\"c\(state.ledger.published)-\(bytes.count)\"")
        }
    }

    /// The ETag of the content at `path`, if any.
    public func etag(of path: String) -> String? { state.withLock { state in state.ledger.content[path]?.etag } }

    /// Requests received so far, including those failed on purpose.
    public var requestCount: Int { state.withLock { state in state.log.count } }
    /// Every request received, in order, as received (with the credential).
    public var requests: [ServerRequest] { state.withLock { state in state.log } }

    // MARK: Faults

    /// Answers the next `n` requests with `status` (503, transient, by
    /// default) and an empty body, without handling them.
    public func failNext(_ n: Int, status: Int = 503) {
        state.withLock { state in
            state.failuresLeft = max(0, n)
            state.failureStatus = status
        }
    }

    /// Answers the next request with `response`, without handling it (for
    /// answers the contract does not allow, such as a malformed body). Taken
    /// before failures set with ``failNext(_:status:)``.
    public func answerNext(with response: ServerResponse) {
        state.withLock { state in state.scripted.append(response) }
    }

    /// The device loses (true) or regains (false) its network: while
    /// offline, requests fail transiently and are not handled.
    public func setOffline(_ offline: Bool) {
        state.withLock { $0.offline = offline }
    }

    // MARK: Serving

    /// The app's side: adds the signed-in user's credential (unless the
    /// request has an `Authorization` header already) and handles the
    /// request as the contract says.
    public func send(_ request: ServerRequest) async throws(StepFailure) -> ServerResponse {
        let reachable = state.withLock { state in !state.offline }
        guard reachable else { throw .transient("\(request.method) \(request.path): the server cannot be reached (offline)") }
        var request = request
        if request.header("Authorization") == nil, let credential = state.withLock({ $0.clientCredential }) {
            request.headers["Authorization"] = "Bearer \(credential)"
        }
        return respond(to: request)
    }

    /// The server's side: the answer to `request` as it arrived, its user
    /// named by its `Authorization` header alone.
    public func respond(to request: ServerRequest) -> ServerResponse {
        let now = now()
        return state.withLock { state in
            state.log.append(request)
            if !state.scripted.isEmpty { return state.scripted.removeFirst() }
            if state.failuresLeft > 0 {
                state.failuresLeft -= 1
                return ServerResponse(status: state.failureStatus)
            }
            return state.ledger.respond(to: request, now: now)
        }
    }

    /// `downloads/` and the path.
    public func download(path: String, storage: ContentStorage?) async throws(StepFailure) -> String {
        "downloads/" + path
    }
}
