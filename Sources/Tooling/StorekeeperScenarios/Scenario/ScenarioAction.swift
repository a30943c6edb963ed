import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics
public import StorekeeperSimulatedStore

/// What a scenario step does (docs/simulate.md, "Actions").
public enum ScenarioAction: Sendable, Hashable {
    /// Starts the app on the current device, or (with a name) quits the running
    /// app, switches to that device and starts the app there.
    case launch(device: String?)
    /// Quits (if running), then launches the app on the current device.
    case relaunch
    /// The app stops normally.
    case quit
    /// The app dies now (nil), or a crash is armed at a point of a plan.
    case crash(CrashPoint?)
    /// A payment.
    case buy(Purchase)
    /// Ask to Buy approved: the deferred transaction becomes purchased.
    case approve(Reference)
    /// Ask to Buy declined: the deferred transaction fails (payment cancelled).
    case decline(Reference)
    /// The user completed the action an interrupted purchase needed.
    case resolve(Reference)
    /// The device loses the network.
    case offline
    /// The network is back; steps waiting for it run.
    case online
    /// Every step waiting for a retry runs now.
    case retry
    /// Restores completed transactions.
    case restore(RestoreRequest)
    /// Fetches the account's receipt to the device.
    case refreshReceipt
    /// Moves the simulated clock.
    case advance(ScenarioDuration)
    /// Turns off a subscription's auto-renewal.
    case cancelRenewal(product: Located<String>)
    /// Refunds or revokes a purchase.
    case refund(Reference, reason: RevocationReason)
    /// Arms a failure of the next download at a percentage.
    case failDownloads(DownloadFault)
    /// Pauses downloads.
    case pauseDownloads
    /// Resumes paused or failed downloads.
    case resumeDownloads
    /// Cancels downloads not finished.
    case cancelDownloads
    /// The app spends a balance under a key.
    case spend(SpendRequest)
    /// Checks the current device.
    case expect(Expectation)
}

/// A purchase named in a scenario: an `as` name, or a product identifier
/// (the latest purchase of that product).
public typealias Reference = Located<String>

/// Where an armed crash happens.
public struct CrashPoint: Sendable, Hashable {
    /// Before the step runs, or (for `finish` only) after the store finished.
    public typealias Moment = CrashMoment

    /// Before or after.
    public var moment: Moment
    /// The step's name (`finish` for `after`).
    public var step: Located<String>

    /// Creates a crash point.
    public init(_ moment: Moment, step: Located<String>) {
        self.moment = moment
        self.step = step
    }
}

/// A `buy` action.
public struct Purchase: Sendable, Hashable {
    /// How the store answers.
    public typealias Outcome = PurchaseOutcome

    /// The product identifier.
    public var product: Located<String>
    /// How many.
    public var quantity: Located<Int>
    /// The `applicationUsername`, when given (else the scenario's `user`).
    public var user: String?
    /// A name to refer to the purchase later (`as`).
    public var name: Located<String>?
    /// The store's answer.
    public var outcome: Outcome

    /// Creates a purchase.
    public init(product: Located<String>, quantity: Located<Int>, user: String? = nil, name: Located<String>? = nil, outcome: Outcome = .succeed) {
        self.product = product
        self.quantity = quantity
        self.user = user
        self.name = name
        self.outcome = outcome
    }
}

/// A `restore` action.
public struct RestoreRequest: Sendable, Hashable {
    /// The `applicationUsername` given (else the scenario's `user`).
    public var user: String?
    /// The products chosen among those whose catalog says `selection: user`;
    /// nil when no selection was given (all of them).
    public var selection: [Located<String>]?

    /// Creates a request.
    public init(user: String? = nil, selection: [Located<String>]? = nil) {
        self.user = user
        self.selection = selection
    }
}

/// Why a purchase is revoked.
public enum RevocationReason: String, Sendable, Hashable, CaseIterable {
    /// The user got their money back.
    case refund
    /// The family organizer stopped sharing it.
    case familySharing = "family-sharing"
}
