/// How faulty StoreKit is on a life's devices: each chance is drawn, with the life's seeded generator, for
/// each message (duplicate, unverified first), each device's share of a step (reorder, delivered while the
/// app is not running, relaunch, a finished transaction given again).
public struct DeviceFaults: Sendable, Hashable {
    /// A message given twice.
    public var duplicate: Double
    /// A device's messages of one step given in another order (an older version after a newer one included).
    public var reorder: Double
    /// A transaction first given unverified (`VerificationResult.unverified`), verified later: on StoreKit 2 only.
    public var unverifiedFirst: Double
    /// A transaction the app finished given again (the same version).
    public var redeliverAfterFinish: Double
    /// The app relaunched (queue and backend dropped, made again over the same StoreKit and journal) at a
    /// random point of the step: before, between or after its messages, or right after a purchase.
    public var relaunch: Double
    /// The step's messages arrive while the app is not running; the next launch gets them.
    public var deliveredWhileQuit: Double

    /// Faults.
    public init(duplicate: Double, reorder: Double, unverifiedFirst: Double, redeliverAfterFinish: Double, relaunch: Double,
                deliveredWhileQuit: Double) {
        self.duplicate = duplicate
        self.reorder = reorder
        self.unverifiedFirst = unverifiedFirst
        self.redeliverAfterFinish = redeliverAfterFinish
        self.relaunch = relaunch
        self.deliveredWhileQuit = deliveredWhileQuit
    }

    /// What the suite and `storekeeper-device-lives` run.
    public static let standard = DeviceFaults(duplicate: 0.1, reorder: 0.2, unverifiedFirst: 0.1, redeliverAfterFinish: 0.1,
                                              relaunch: 0.12, deliveredWhileQuit: 0.08)

    /// None: StoreKit as the happy path.
    public static let none = DeviceFaults(duplicate: 0, reorder: 0, unverifiedFirst: 0, redeliverAfterFinish: 0, relaunch: 0,
                                          deliveredWhileQuit: 0)
}
