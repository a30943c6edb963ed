/// How often each fault of delivery happens, as chances per message (or per step, for the server and
/// the devices going down). Apple documents that it retries a notification it could not deliver and that
/// a server must expect duplicates and any order; an app's own posts are retried the same way.
///
/// Source: https://developer.apple.com/documentation/appstoreservernotifications/responding-to-app-store-server-notifications
public struct DeliveryFaults: Sendable, Hashable {
    /// A message is delivered again (one to two more times), later.
    public var duplicate: Double
    /// A message is held back for one to ``maximumDelay`` steps.
    public var delay: Double
    /// A message's first attempt is lost: it is retried one to ``maximumDelay`` steps later.
    public var lostAttempt: Double
    /// A device post waits longer than the notifications of the same event (they arrive first).
    public var postAfterNotification: Double
    /// After a device posts a newer version of a transaction, it posts an older copy again.
    public var staleCopy: Double
    /// At a step, the server goes down for one to ``maximumDelay`` steps: everything waits.
    public var serverDown: Double
    /// At a step, a device goes off (it misses the renewals meanwhile, and posts the rest late), or comes back.
    public var deviceOff: Double
    /// The longest hold, in steps (a checkpoint delivers everything anyway).
    public var maximumDelay: Int
    /// Whether a device that is off misses every update it can miss (new versions of transactions it has:
    /// upgraded, revoked, extended), not only renewals. Off by default: StoreKit hands an app the updates of
    /// its transactions when it runs again (`Transaction.updates`), so an app that was off posts them late;
    /// what it never sees are the renewals that happened meanwhile, which the server learns from DID_RENEW.
    /// Source: https://developer.apple.com/documentation/storekit/transaction/updates
    public var offDevicesMissUpdates: Bool

    /// Faults.
    public init(duplicate: Double, delay: Double, lostAttempt: Double, postAfterNotification: Double, staleCopy: Double,
                serverDown: Double, deviceOff: Double, maximumDelay: Int, offDevicesMissUpdates: Bool = false) {
        self.duplicate = duplicate
        self.delay = delay
        self.lostAttempt = lostAttempt
        self.postAfterNotification = postAfterNotification
        self.staleCopy = staleCopy
        self.serverDown = serverDown
        self.deviceOff = deviceOff
        self.maximumDelay = maximumDelay
        self.offDevicesMissUpdates = offDevicesMissUpdates
    }

    /// Every fault, often enough that a short life meets several.
    public static let standard = DeliveryFaults(
        duplicate: 0.15, delay: 0.25, lostAttempt: 0.1, postAfterNotification: 0.3, staleCopy: 0.15, serverDown: 0.06, deviceOff: 0.12,
        maximumDelay: 4)

    /// No fault: every message delivered once, in order, at once (for a driver's own tests).
    public static let none = DeliveryFaults(
        duplicate: 0, delay: 0, lostAttempt: 0, postAfterNotification: 0, staleCopy: 0, serverDown: 0, deviceOff: 0, maximumDelay: 0)
}
