import Foundation
import StorekeeperDeviceLives
import StorekeeperRuntime
import StorekeeperSimulatedStore
import StorekeeperStoreModel
import StorekeeperTestChain
import StorekeeperTooling
import StorekeeperTestSupport

/// The device catalog compiled as `storekeeper compile` does (rules included, as the command compiles it), and
/// the model's configuration signed by the test chain: made once for every suite of the StoreKit 2 lives.
enum DeviceLivesFixture {
    struct World: Sendable {
        let policy: CompiledPolicy
        let modelConfiguration: StoreModel.Configuration
    }

    static let world: Result<World, any Error> = Result {
        let folder = try ScratchFolder.create(prefix: "storekeeper-device-lives-tests")
        defer { ScratchFolder.remove(folder) }
        let path = folder.appendingPathComponent("catalog.yaml").path
        try Data(try DeviceCatalog.yaml().utf8).write(to: URL(fileURLWithPath: path))
        let compilation = try Workflows.compile(path, options: WorkflowOptions())
        guard let policy = compilation.policy else {
            throw DeviceLivesFixtureError("the device catalog does not compile: \(compilation.diagnostics.map(\.message))")
        }
        let configuration = StoreModel.Configuration(
            bundleID: StoreModelCatalog.bundleID, environment: .sandbox, start: Date(timeIntervalSince1970: 1_767_225_600),
            signer: SignedDataSigner(chain: try TestCertificateChain(options: .init(seed: 24))))
        return World(policy: policy, modelConfiguration: configuration)
    }

    /// A StoreKit 2 driver over `world`, its devices made by `makeDevice` (the model-driven StoreKit 2 by default).
    static func storeKit2Driver(faults: DeviceFaults = .standard,
                                makeDevice: (@Sendable (String, CompiledPolicy) -> any LifeDevice)? = nil) throws -> DeviceLifeDriver {
        let world = try world.get()
        return DeviceLifeDriver(policy: world.policy, modelConfiguration: world.modelConfiguration, faults: faults, backend: "storekit2",
                                makeDevice: makeDevice ?? { appleID, policy in StoreKit2LifeDevice(appleID: appleID, policy: policy) })
    }
}

struct DeviceLivesFixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
