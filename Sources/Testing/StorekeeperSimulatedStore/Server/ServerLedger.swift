import Foundation
import StorekeeperContract
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// What the simulated server holds, per user, and its answers to the routes
/// of docs/server-contract.md (v1). A value: ``SimulatedServer`` keeps one
/// under its lock.
struct ServerLedger {
    /// A transaction the server verified (`POST /v1/transactions` or
    /// `POST /v1/receipts/verify`).
    struct Verified: Hashable {
        var transaction: String
        var product: String
        var originalTransaction: String
        var environment: String
        var quantity: Int
        var expirationDate: Date?
    }

    /// A spend that was made, and its answer.
    struct Spend: Hashable {
        var balance: String
        var amount: Int
        var remaining: Int
    }

    /// A file of server-delivered content.
    struct Content {
        var bytes: [UInt8]
        var product: String
        var etag: String
    }

    /// The products, to derive features, balances and subscriptions from
    /// purchases; nil derives only product ids.
    let products: [String: ProductPolicy]
    /// The appAccountToken of a user, when the server knows how to derive it.
    let appAccountToken: (@Sendable (String) -> UUID)?

    var credentials: [String: String] = [:]
    var issued = 0
    var records: [String: [String: StoredRecord]] = [:]
    var verified: [String: [String: Verified]] = [:]
    var granted: [String: [String: Int]] = [:]
    var spends: [String: [String: Spend]] = [:]
    var revoked: Set<String> = []
    var content: [String: Content] = [:]
    var published = 0

    init(policy: CompiledPolicy?, appAccountToken: (@Sendable (String) -> UUID)?) {
        products = Dictionary((policy?.products ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.appAccountToken = appAccountToken
    }

    // MARK: Accounts

    mutating func issueCredential(for user: String) -> String {
        issued += 1
        let credential = "simulated-credential-\(issued)"
        credentials[credential] = user
        return credential
    }

    /// The user a request's `Authorization: Bearer` credential names.
    func user(of request: ServerRequest) -> String? {
        guard let header = request.header("Authorization"), header.hasPrefix("Bearer ") else { return nil }
        return credentials[String(header.dropFirst("Bearer ".count))]
    }

    // MARK: What a user has

    /// The unrevoked purchases of `user`, by transaction id: records and
    /// verified transactions, each transaction once.
    func purchases(of user: String) -> [String: (product: String, quantity: Int, expiration: Date?)] {
        var result: [String: (product: String, quantity: Int, expiration: Date?)] = [:]
        for (id, record) in records[user] ?? [:] where !revoked.contains(id) {
            let quantity = if case let .transaction(_, count) = record.value { count } else { 1 }
            result[id] = (record.productID, quantity, record.expirationDate)
        }
        for (id, transaction) in verified[user] ?? [:] where !revoked.contains(id) && result[id] == nil {
            result[id] = (transaction.product, transaction.quantity, transaction.expirationDate)
        }
        return result
    }

    /// A balance: what purchases granted (by the policy), plus what was
    /// granted directly, less what was spent.
    func balance(_ name: String, of user: String) -> Int {
        var total = granted[user]?[name] ?? 0
        for purchase in purchases(of: user).values {
            for grant in products[purchase.product]?.grants ?? [] where grant.balance == name {
                total += grant.amount * purchase.quantity
            }
        }
        for spend in (spends[user] ?? [:]).values where spend.balance == name { total -= spend.amount }
        return max(0, total)
    }

    func entitlements(of user: String, now: Date) -> ServerEntitlements {
        var owned: Set<String> = []
        var features: Set<String> = []
        var balanceNames = Set((granted[user] ?? [:]).keys)
        var subscriptions: [String: Double] = [:]
        for purchase in purchases(of: user).values {
            let policy = products[purchase.product]
            policy?.grants.forEach { balanceNames.insert($0.balance) }
            if policy?.type == .consumable { continue }
            if let end = purchase.expiration {
                guard end > now else { continue }
                subscriptions[purchase.product] = max(subscriptions[purchase.product] ?? 0, end.timeIntervalSince1970)
            }
            owned.insert(purchase.product)
            policy?.unlocks.forEach { features.insert($0) }
        }
        return ServerEntitlements(
            features: features.sorted(),
            balances: Dictionary(uniqueKeysWithValues: balanceNames.map { ($0, balance($0, of: user)) }),
            subscriptions: subscriptions.keys.sorted().map {
                .init(product: $0, expirationDate: Date(timeIntervalSince1970: subscriptions[$0] ?? 0), status: .active)
            },
            products: owned.sorted())
    }

    // MARK: Routes

    mutating func respond(to request: ServerRequest, now: Date) -> ServerResponse {
        let path = request.path
        guard path.hasPrefix("/v1/") else { return Self.error(404, .notFound, "no route \(path); every route is under /v1/") }
        guard !path.contains("?") else { return Self.error(400, .badRequest, "no route of the contract takes a query") }
        guard let user = user(of: request) else {
            return Self.error(401, .unauthenticated, "send Authorization: Bearer with a valid credential")
        }
        let route = path.dropFirst("/v1/".count)
        func only(_ method: String, _ body: () -> ServerResponse) -> ServerResponse {
            request.method == method ? body() : Self.error(405, .methodNotAllowed, "\(path) takes \(method), not \(request.method)")
        }
        switch route {
        case "account":
            return only("GET") { account(of: user) }
        case "entitlements":
            return only("GET") { Self.json(entitlements(of: user, now: now)) }
        case "records":
            return only("GET") { list(of: user) }
        case "receipts/verify":
            return only("POST") { verifyReceipt(request.body, for: user) }
        case "transactions":
            return only("POST") { verifyTransaction(request.body, for: user) }
        default:
            if let segment = Self.segment(after: "records/", in: route) {
                return only("PUT") { keep(segment, body: request.body, for: user) }
            }
            if let segment = Self.segment(after: "spends/", in: route) {
                return only("PUT") { spend(segment, body: request.body, for: user) }
            }
            if route.hasPrefix("content/") {
                return only("GET") { serve(route.dropFirst("content/".count), request: request, for: user) }
            }
            return Self.error(404, .notFound, "no route \(path)")
        }
    }

    private func account(of user: String) -> ServerResponse {
        guard let derive = appAccountToken else {
            return Self.error(501, .notConfigured, "this simulated server was made without an appAccountToken derivation")
        }
        return Self.json(AccountBody(user: user, appAccountToken: derive(user).uuidString.lowercased()))
    }

    private mutating func keep(_ segment: Substring, body: [UInt8], for user: String) -> ServerResponse {
        guard let id = ServerPath.decodedSegment(segment), !id.isEmpty else {
            return Self.error(400, .badRequest, "the transaction id is not a percent-encoded segment")
        }
        let object: RecordObject
        let record: StoredRecord
        do throws(ContractError) {
            object = try ContractCoding.decode(RecordObject.self, from: body)
            record = try object.record()
        } catch {
            return Self.error(400, .badRequest, "the body is not a record object: \(error)")
        }
        guard object.transaction == id else {
            return Self.error(400, .badRequest, "the body's transaction is '\(object.transaction)', the path's '\(id)'")
        }
        if let named = object.user, named != user {
            return Self.error(403, .userMismatch, "the record's user is not the authenticated user")
        }
        let isNew = records[user, default: [:]].updateValue(record, forKey: id) == nil
        return ServerResponse(status: isNew ? 201 : 200)
    }

    private func list(of user: String) -> ServerResponse {
        let mine = records[user] ?? [:]
        // A kept record was read from a valid object, so it makes one again.
        return Self.json(RecordList(records: mine.keys.sorted().compactMap { mine[$0].flatMap { try? RecordObject($0) } }))
    }

    private mutating func verifyReceipt(_ body: [UInt8], for user: String) -> ServerResponse {
        let request: ReceiptVerificationBody
        do throws(ContractError) {
            request = try ContractCoding.decode(ReceiptVerificationBody.self, from: body)
        } catch {
            return Self.error(400, .badRequest, "\(error); the body must be \(ReceiptVerificationBody.shape)")
        }
        guard let receipt = request.receipt else { return Self.error(403, .receiptNotValid, "there is no receipt") }
        guard let bytes = Base64.decode(receipt) else { return Self.error(400, .badRequest, "the receipt is not Base64") }
        guard !bytes.isEmpty else { return Self.error(403, .receiptNotValid, "the receipt is empty") }
        verified[user, default: [:]][request.transaction] = Verified(
            transaction: request.transaction, product: request.product, originalTransaction: request.transaction,
            environment: "Sandbox", quantity: 1)
        return ServerResponse(status: 200)
    }

    private mutating func verifyTransaction(_ body: [UInt8], for user: String) -> ServerResponse {
        let signed: SignedTransactionBody
        do throws(ContractError) {
            signed = try ContractCoding.decode(SignedTransactionBody.self, from: body)
        } catch {
            return Self.error(400, .badRequest, "\(error); the body must be \(SignedTransactionBody.shape)")
        }
        guard let payload = JWSPayload.peek(PeekedTransaction.self, in: signed.signedTransaction) else {
            return Self.error(422, .verificationFailed, "the signed transaction is not a JWS with a transaction payload")
        }
        if let token = payload.appAccountToken, let derive = appAccountToken,
           UUID(uuidString: token) != derive(user) {
            return Self.error(403, .accountMismatch, "the transaction's appAccountToken is another user's")
        }
        let transaction = Verified(
            transaction: payload.transactionId, product: payload.productId,
            originalTransaction: payload.originalTransactionId ?? payload.transactionId,
            environment: payload.environment ?? "Sandbox", quantity: payload.quantity ?? 1,
            expirationDate: payload.expiresDate.map { Date(timeIntervalSince1970: $0 / 1000) })
        // Kept once by its id: a repeated post answers the same.
        let kept = verified[user]?[transaction.transaction] ?? transaction
        verified[user, default: [:]][kept.transaction] = kept
        return Self.json(KeptTransactionBody(transaction: kept.transaction, product: kept.product,
                                             originalTransaction: kept.originalTransaction, environment: kept.environment))
    }

    private mutating func spend(_ segment: Substring, body: [UInt8], for user: String) -> ServerResponse {
        guard let key = ServerPath.decodedSegment(segment), !key.isEmpty else {
            return Self.error(400, .badRequest, "the spend key is not a percent-encoded segment")
        }
        let request: SpendBody
        do throws(ContractError) {
            request = try ContractCoding.decode(SpendBody.self, from: body)
            try request.validate()
        } catch {
            return Self.error(400, .badRequest, "\(error); the body must be \(SpendBody.shape)")
        }
        let (balance, amount) = (request.balance, request.amount)
        if let earlier = spends[user]?[key] {
            guard earlier.balance == balance, earlier.amount == amount else {
                return Self.error(409, .spendKeyReused, "the key '\(key)' was used for \(earlier.amount) \(earlier.balance)")
            }
            return spent(key, earlier)
        }
        let available = self.balance(balance, of: user)
        guard available >= amount else {
            return Self.error(409, .insufficientBalance, "\(balance): \(available) available, \(amount) asked")
        }
        let made = Spend(balance: balance, amount: amount, remaining: available - amount)
        spends[user, default: [:]][key] = made
        return spent(key, made)
    }

    private func spent(_ key: String, _ spend: Spend) -> ServerResponse {
        Self.json(SpendAnswerBody(key: key, balance: spend.balance, amount: spend.amount, remaining: spend.remaining))
    }

    private func serve(_ encodedPath: Substring, request: ServerRequest, for user: String) -> ServerResponse {
        var segments: [String] = []
        for segment in encodedPath.split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = ServerPath.decodedSegment(segment), !decoded.isEmpty, decoded != ".", decoded != ".." else {
                return Self.error(400, .badRequest, "the content path has an empty, '.', '..' or malformed segment")
            }
            segments.append(decoded)
        }
        let path = segments.joined(separator: "/")
        guard let file = content[path] else { return Self.error(404, .noSuchContent, "no content at '\(path)'") }
        guard purchases(of: user).values.contains(where: { $0.product == file.product }) else {
            return Self.error(403, .notOwned, "the content is for '\(file.product)', which this user has not bought")
        }
        var headers = ["ETag": file.etag, "Content-Type": "application/octet-stream"]
        let total = file.bytes.count
        guard let range = request.header("Range"),
              request.header("If-Range").map({ $0 == file.etag }) ?? true
        else { return ServerResponse(status: 200, headers: headers, body: file.bytes) }
        guard range.hasPrefix("bytes="), range.hasSuffix("-"),
              let start = Int(range.dropFirst("bytes=".count).dropLast()), start >= 0
        else { return Self.error(400, .badRequest, "this server reads only Range: bytes=N-") }
        guard start < total else {
            headers["Content-Range"] = "bytes */\(total)"
            return ServerResponse(status: 416, headers: headers)
        }
        headers["Content-Range"] = "bytes \(start)-\(total - 1)/\(total)"
        return ServerResponse(status: 206, headers: headers, body: Array(file.bytes[start...]))
    }

    // MARK: Answers

    static let jsonType = ["Content-Type": "application/json"]

    /// The segment after `prefix` when the route is exactly `prefix` and one segment.
    private static func segment(after prefix: String, in route: Substring) -> Substring? {
        guard route.hasPrefix(prefix) else { return nil }
        let rest = route.dropFirst(prefix.count)
        return rest.isEmpty || rest.contains("/") ? nil : rest
    }

    static func error(_ status: Int, _ code: ErrorCode, _ message: String) -> ServerResponse {
        ServerResponse(status: status, headers: jsonType, body: ServerErrorBody(code, message).json)
    }

    private static func json(_ value: some Encodable) -> ServerResponse {
        guard let body = try? ContractCoding.encode(value) else { return error(500, .internal, "the answer could not be written") }
        return ServerResponse(status: 200, headers: jsonType, body: body)
    }
}
