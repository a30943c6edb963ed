import Foundation
import StorekeeperDeviceLives
import StorekeeperRuntime
import StorekeeperSimulatedStore
import StorekeeperStoreModel
import StorekeeperTestChain
import StorekeeperTooling

/// What every life of a run shares: ``DeviceCatalog`` compiled as `storekeeper compile` does (the In-App
/// Purchase guide's rules included, as storekeeper-server-lives' LivesWorld compiles the model's catalog),
/// and the test chain that signs as the App Store.
struct DeviceWorld {
    let policy: CompiledPolicy
    let modelConfiguration: StoreModel.Configuration

    init() throws {
        policy = try Self.compile(try DeviceCatalog.yaml())
        let chain = try TestCertificateChain(options: .init(seed: 24))
        modelConfiguration = StoreModel.Configuration(
            bundleID: StoreModelCatalog.bundleID, environment: .sandbox, start: Date(timeIntervalSince1970: 1_767_225_600),
            signer: SignedDataSigner(chain: chain))
    }

    /// `yaml` validated with the policy rules, then compiled; a catalog with an error is refused with its diagnostics.
    static func compile(_ yaml: String) throws -> CompiledPolicy {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storekeeper-device-lives-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("catalog.yaml").path
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: path))
        let compilation = try Workflows.compile(path, options: WorkflowOptions())
        guard let policy = compilation.policy else {
            throw DeviceWorldError("the device catalog does not compile: \(compilation.diagnostics.map(\.message).joined(separator: "; "))")
        }
        return policy
    }
}

/// Why the run could not be set up.
struct DeviceWorldError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
