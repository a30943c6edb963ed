import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// The app's server, simulated: an in-process implementation of exactly the
/// HTTP contract in `docs/server-contract.md`, as a `ServerTransport`, for
/// simulations and for tests of ``ServerRecordStore`` and of the queue.
///
/// - `PUT /records/{transactionID}` keeps the body's record under the
///   percent-decoded id (201 when new, 200 when it replaces one); a body
///   that is not a record object, or names another transaction, is 400.
/// - `GET /records[?user=NAME]` answers `{"records": [...]}`, every record
///   or those whose `user` is NAME, ordered by transaction id.
/// - `POST /receipts/verify` answers 200 for a well-formed body whose
///   `receipt` is non-empty Base64, 403 ("not valid") for a null or empty
///   one, 400 for a malformed body.
/// - Other paths are 404, other methods on these paths 405.
/// - While offline, every request fails transiently, as a transport that
///   cannot reach its server does.
///
/// Its parsing is its own, not the client's (`ServerRecordStore`), so that
/// it checks the client against the document rather than against itself.
/// Every request is counted and logged, including those it fails on purpose.
public final class SimulatedServer: ServerTransport, @unchecked Sendable {
    // @unchecked: every stored property below is read and written only under `lock`.
    private let lock = NSLock()
    private var storedRecords: [String: StoredRecord] = [:]
    private var log: [ServerRequest] = []
    private var failuresLeft = 0
    private var failureStatus = 503
    private var scripted: [ServerResponse] = []
    private var offline = false

    /// A server with no records.
    public init() {}

    /// The records kept, by transaction id.
    public var records: [String: StoredRecord] { lock.withLock { storedRecords } }
    /// Requests received so far, including those failed on purpose.
    public var requestCount: Int { lock.withLock { log.count } }
    /// Every request received, in order.
    public var requests: [ServerRequest] { lock.withLock { log } }

    /// Answers the next `n` requests with `status` (503, transient, by
    /// default) and an empty body, without handling them.
    public func failNext(_ n: Int, status: Int = 503) {
        lock.withLock {
            failuresLeft = max(0, n)
            failureStatus = status
        }
    }

    /// Answers the next request with `response`, without handling it (for
    /// answers the contract does not allow, such as a malformed body). Taken
    /// before failures set with ``failNext(_:status:)``.
    public func answerNext(with response: ServerResponse) {
        lock.withLock { scripted.append(response) }
    }

    /// The device loses (true) or regains (false) its network: while
    /// offline, requests fail transiently and are not handled.
    public func setOffline(_ offline: Bool) {
        lock.withLock { self.offline = offline }
    }

    /// Handles `request` as the contract says.
    public func send(_ request: ServerRequest) async throws(StepFailure) -> ServerResponse {
        let reachable = lock.withLock { !offline }
        guard reachable else { throw .transient("the server cannot be reached (offline)") }
        return lock.withLock { handle(request) }
    }

    /// `downloads/` and the path.
    public func download(path: String, storage: ContentStorage?) async throws(StepFailure) -> String {
        "downloads/" + path
    }

    // MARK: - The contract (called under `lock`)

    private func handle(_ request: ServerRequest) -> ServerResponse {
        log.append(request)
        if !scripted.isEmpty { return scripted.removeFirst() }
        if failuresLeft > 0 {
            failuresLeft -= 1
            return ServerResponse(status: failureStatus)
        }
        let (path, query) = Self.splitQuery(request.path)
        if path == "/records" {
            guard request.method == "GET" else { return Self.status(405) }
            return list(query: query)
        }
        if path.hasPrefix("/records/") {
            let segment = path.dropFirst("/records/".count)
            guard !segment.contains("/") else { return Self.status(404) }
            guard request.method == "PUT" else { return Self.status(405) }
            guard query == nil, let id = Self.percentDecoded(segment), !id.isEmpty else { return Self.status(400) }
            return put(id: id, body: request.body)
        }
        if path == "/receipts/verify" {
            guard request.method == "POST" else { return Self.status(405) }
            return verify(request.body)
        }
        return Self.status(404)
    }

    private func put(id: String, body: [UInt8]) -> ServerResponse {
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(body)),
              wire.transaction == id, let record = wire.record else {
            return Self.status(400)
        }
        let isNew = storedRecords.updateValue(record, forKey: id) == nil
        return Self.status(isNew ? 201 : 200)
    }

    private func list(query: Substring?) -> ServerResponse {
        var user: String?
        if let query {
            guard query.hasPrefix("user="), let name = Self.percentDecoded(query.dropFirst("user=".count)) else {
                return Self.status(400)
            }
            user = name
        }
        let chosen = storedRecords.keys.sorted().compactMap { storedRecords[$0] }
            .filter { user == nil || $0.applicationUsername == user }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let body = try? encoder.encode(["records": chosen.map(Wire.init)]) else { return Self.status(500) }
        return ServerResponse(status: 200, body: Array(body))
    }

    private func verify(_ body: [UInt8]) -> ServerResponse {
        struct Verify: Decodable {
            var transaction: String
            var product: String
            var receipt: String?
        }
        guard let request = try? JSONDecoder().decode(Verify.self, from: Data(body)) else { return Self.status(400) }
        guard let receipt = request.receipt else { return Self.status(403) }
        guard let bytes = Data(base64Encoded: receipt) else { return Self.status(400) }
        return Self.status(bytes.isEmpty ? 403 : 200)
    }

    // MARK: - Parsing

    private static func status(_ code: Int) -> ServerResponse { ServerResponse(status: code) }

    private static func splitQuery(_ target: String) -> (path: Substring, query: Substring?) {
        guard let mark = target.firstIndex(of: "?") else { return (target[...], nil) }
        return (target[..<mark], target[target.index(after: mark)...])
    }

    /// RFC 3986 percent-decoding of a segment or query value: `%XX` escapes,
    /// and raw bytes only where a path may hold them unescaped (not space,
    /// `/`, `?`, `#`, `%`, non-ASCII). `nil` when malformed or not UTF-8.
    private static func percentDecoded(_ text: Substring) -> String? {
        let allowedRaw = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@".utf8)
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                guard allowedRaw.contains(byte) else { return nil }
                bytes.append(byte)
            }
        }
        // Foundation's, not String(validating:), which needs iOS 18: nil when not UTF-8.
        return String(bytes: bytes, encoding: .utf8)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The record object, as the document describes it.
    private struct Wire: Codable {
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
}
