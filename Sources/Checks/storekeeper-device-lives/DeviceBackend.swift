import ArgumentParser
import StorekeeperDeviceLives
import StorekeeperRuntime

/// The StoreKit a device's queue runs over.
enum DeviceBackend: String, CaseIterable, ExpressibleByArgument {
    /// `StoreKit2Backend` over ``ModelStoreKit2Device``.
    case storekit2
    /// `StoreKit1Backend` over the model-driven payment queue and receipt (another helper wires it).
    case storekit1
    /// Both, one after the other.
    case both

    /// The backends to run, in order.
    var runs: [DeviceBackend] { self == .both ? [.storekit2, .storekit1] : [self] }

    /// The driver of this backend's lives, or why there is none yet.
    func driver(world: DeviceWorld, traces: Bool) throws(ValidationError) -> any DeviceLivesDriver {
        switch self {
        case .storekit2:
            var driver = DeviceLifeDriver(policy: world.policy, modelConfiguration: world.modelConfiguration, backend: rawValue) { appleID, policy in
                StoreKit2LifeDevice(appleID: appleID, policy: policy)
            }
            driver.traces = traces
            return driver
        case .storekit1:
            throw ValidationError("--backend storekit1: not built yet (the model-driven StoreKit 1 lives are not wired to this command)")
        case .both:
            throw ValidationError("--backend both: run storekit2 and storekit1 one at a time")
        }
    }

    /// Whether this backend's lives can run (storekit1 until it is wired: no).
    var isBuilt: Bool { self == .storekit2 }
}
