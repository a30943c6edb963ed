import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperSimulatedStore
import StorekeeperTestChain
import StorekeeperVerification

/// A server on one backend for one test: the test policy (Fixtures/policy.json),
/// a verifier trusting the test chain's root for Sandbox, a content folder,
/// a fixed clock, and helpers to make tokens and signed transactions.
struct ServerHarness: Sendable {
    static let bundleID = "com.example.servertests"
    /// The tests' "now": 2026-01-01T00:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    static let secret = "a-test-secret-of-more-than-32-bytes-for-hs256"
    static let operatorKeyText = "operator-key-0123456789abcdefghijklmnop"

    static let coins = "com.example.servertests.coins"
    static let pro = "com.example.servertests.pro"
    static let level2 = "com.example.servertests.level2"
    static let bonus = "com.example.servertests.bonus"
    static let monthly = "com.example.servertests.monthly"
    /// The lower tier of `monthly`'s group (level 2), with server content at `basic/guide`.
    static let basic = "com.example.servertests.basic"
    /// A non-renewing subscription of one month (`P1M`), with server content at `passes/pass`.
    static let pass = "com.example.servertests.pass"

    /// The content folder's files: `packs/level-2.zip` (more than two of the chunks the route reads) and `com.example.servertests.bonus`.
    static let level2Bytes: [UInt8] = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    static let bonusBytes: [UInt8] = Array("the bonus level".utf8)

    let storage: any LedgerStorage
    let registry: PrometheusCollectorRegistry
    let signer: SignedDataSigner
    let contentFolder: URL
    let configuration: ServerConfiguration

    /// The compiled test policy.
    static func policy() throws -> CompiledPolicy {
        guard let url = Bundle.module.url(forResource: "Fixtures/policy", withExtension: "json") else {
            throw HarnessError("Fixtures/policy.json is not among the test resources")
        }
        return try PolicyDecoder().decode(Array(try Data(contentsOf: url)))
    }

    /// The test chain, the same keys on every run.
    static func chain() throws -> TestCertificateChain { try TestCertificateChain(options: .init(seed: 18)) }

    /// Runs `body` against a server on `backend`; `configure` may change the configuration first.
    static func run(
        _ backend: TestBackend, clock: TestClock = TestClock(), configure: @Sendable (inout ServerConfiguration) throws -> Void = { _ in },
        _ body: @Sendable (ServerHarness, any TestClientProtocol) async throws -> Void
    ) async throws {
        let chain = try chain()
        try await ScratchFolder.with(prefix: "storekeeper-server-content") { folder in
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("packs"), withIntermediateDirectories: true)
            try Data(level2Bytes).write(to: folder.appendingPathComponent("packs/level-2.zip"))
            try Data(bonusBytes).write(to: folder.appendingPathComponent(bonus))
            for path in ["basic/guide", "passes/pass"] {
                let file = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(path.utf8).write(to: file)
            }
            let verifier = try SignedDataVerifier(trustedRoots: [chain.rootDER], bundleID: bundleID, environment: .sandbox)
            var configuration = ServerConfiguration(
                policy: try policy(), verifiers: try TransactionVerifiers(verifier), clientTokenSecret: try ClientTokenSecret(secret),
                operatorKey: try OperatorKey(operatorKeyText), content: try FolderContentStore(path: folder.path))
            try configure(&configuration)
            let settled = configuration
            try await backend.withStorage { storage, _ in
                let registry = PrometheusCollectorRegistry()
                let harness = ServerHarness(
                    storage: storage, registry: registry, signer: SignedDataSigner(chain: chain), contentFolder: folder, configuration: settled)
                let router = buildRouter(configuration: settled, storage: storage, metrics: ServerMetrics(registry: registry), now: { clock.now })
                try await Application(router: router).test(.router) { client in
                    try await body(harness, client)
                }
            }
        }
    }

    /// A client token for `user`, valid for an hour after ``now``.
    func token(_ user: String) throws -> String {
        try ClientToken.issue(user: user, expiresAt: Self.now.addingTimeInterval(3600), secret: configuration.clientTokenSecret)
    }

    /// A client token for `user`, valid until `expiry` (for tests that move the clock).
    func token(_ user: String, until expiry: Date) throws -> String {
        try ClientToken.issue(user: user, expiresAt: expiry, secret: configuration.clientTokenSecret)
    }

    /// A transaction payload of `product` bought by `user` (its appAccountToken), Sandbox, signed now.
    func payload(
        _ id: String, product: String, user: String?, quantity: Int = 1, expires: Date? = nil, revoked: Bool = false
    ) -> TransactionPayload {
        let type: AppStoreProductType = switch product {
        case Self.coins: .consumable
        case Self.monthly, Self.basic: .autoRenewableSubscription
        case Self.pass: .nonRenewingSubscription
        default: .nonConsumable
        }
        return TransactionPayload(
            transactionID: id, bundleID: Self.bundleID, productID: product,
            subscriptionGroupIdentifier: product == Self.monthly || product == Self.basic ? "premium" : nil, purchaseDate: Self.now.addingTimeInterval(-60),
            expiresDate: expires, quantity: quantity, type: type, appAccountToken: user.map { AppAccountToken.derive(fromUser: $0) },
            signedDate: Self.now.addingTimeInterval(-30), revocationReason: revoked ? .otherReason : nil,
            revocationDate: revoked ? Self.now.addingTimeInterval(-10) : nil, environment: .sandbox)
    }

    /// `payload` signed by the test chain.
    func sign(_ payload: TransactionPayload) throws -> String { try signer.sign(payload.json) }

    /// The body of `POST /v1/transactions` for `jws`.
    static func transactionBody(_ jws: String) -> String { #"{"signedTransaction":"\#(jws)"}"# }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
