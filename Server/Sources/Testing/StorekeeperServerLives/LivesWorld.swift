import Foundation
import StorekeeperCore
public import StorekeeperRuntime
public import StorekeeperServer
import StorekeeperSimulatedStore
public import StorekeeperStoreModel
public import StorekeeperTestChain
import StorekeeperTooling
import StorekeeperVerification

/// What every life of a run shares: the model's own catalog (``StoreModelCatalog``: every product type, a
/// consumable granting a balance, family-shareable products, one subscription group of two levels and two
/// durations, a non-renewing pass) compiled as `storekeeper compile` does, the test chain that signs as the
/// App Store, and the server's configuration for Sandbox trusting it.
public struct LivesWorld: Sendable {
    /// Its app's bundle id.
    public static let bundleID = StoreModelCatalog.bundleID
    static let clientTokenSecret = "storekeeper-server-lives-client-token-secret-0123456789"
    static let operatorKey = "storekeeper-server-lives-operator-key-0123456789abcdef"

    /// The compiled policy.
    public let policy: CompiledPolicy
    /// The test chain's signer.
    public let signer: SignedDataSigner
    /// The servers' configuration.
    public let server: ServerConfiguration

    /// Compiles the catalog and makes the chain (the same keys on every run).
    public init() throws {
        policy = try Self.compile(StoreModelCatalog.yaml)
        let chain = try TestCertificateChain(options: .init(seed: 24))
        signer = SignedDataSigner(chain: chain)
        let verifier = try SignedDataVerifier(trustedRoots: [chain.rootDER], bundleID: Self.bundleID, environment: .sandbox)
        server = ServerConfiguration(
            policy: policy, verifiers: try TransactionVerifiers(verifier), clientTokenSecret: try ClientTokenSecret(Self.clientTokenSecret),
            operatorKey: try OperatorKey(Self.operatorKey))
    }

    /// The model's configuration for a life (its start and grace period are drawn from the life's seed).
    public var modelConfiguration: StoreModel.Configuration {
        StoreModel.Configuration(
            bundleID: Self.bundleID, appAppleID: nil, environment: .sandbox, start: Date(timeIntervalSince1970: 1_767_225_600),
            billingGracePeriodDays: nil, signer: signer)
    }

    /// A life of this world.
    public func life(seed: UInt64, settings: LifeSettings = .standard) -> RandomLife {
        RandomLife(seed: seed, policy: policy, configuration: modelConfiguration, settings: settings)
    }

    /// `yaml` compiled as `storekeeper compile` compiles a catalog file: validated with the In-App Purchase
    /// guide's rules, then compiled.
    static func compile(_ yaml: String) throws -> CompiledPolicy {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storekeeper-lives-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("catalog.yaml").path
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: path))
        let compilation: Compilation
        do {
            compilation = try Workflows.compile(path, options: WorkflowOptions())
        } catch {
            throw LivesError("the model's catalog: \(error.description)")
        }
        guard let policy = compilation.policy else {
            throw LivesError("the model's catalog does not compile: \(compilation.diagnostics.map(\.message).joined(separator: "; "))")
        }
        return policy
    }
}
