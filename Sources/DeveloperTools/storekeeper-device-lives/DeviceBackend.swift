import ArgumentParser
import StorekeeperDeviceLives
import StorekeeperRuntime

/// The StoreKit a device's queue runs over.
enum DeviceBackend: String, CaseIterable, ExpressibleByArgument {
    /// `StoreKit2Backend` over ``ModelStoreKit2Device``.
    case storekit2
    /// `StoreKit1Backend` over ``ModelStoreKit1Device`` (its payment queue and app receipt), with StoreKit 1's
    /// projection of the model's entitlements (``StoreKit1LifeDriver``).
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
            var driver = StoreKit1LifeDriver(policy: world.policy, modelConfiguration: world.modelConfiguration)
            driver.traces = traces
            return driver
        case .both:
            throw ValidationError("--backend both: run storekit2 and storekit1 one at a time")
        }
    }

    /// Whether this backend's lives can run: both StoreKits' can.
    var isBuilt: Bool { true }
}
