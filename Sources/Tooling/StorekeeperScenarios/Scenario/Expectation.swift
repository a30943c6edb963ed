import StorekeeperCatalog
public import StorekeeperCore
public import StorekeeperDiagnostics
public import StorekeeperSimulatedStore

/// An `expect` action: each key present is checked (docs/simulate.md, "Expectations").
public struct Expectation: Sendable, Hashable {
    /// Exactly these features are unlocked.
    public var features: Located<Set<String>>?
    /// Exactly these products are owned.
    public var owns: Located<Set<String>>?
    /// Exactly these subscriptions are active.
    public var subscriptions: Located<Set<String>>?
    /// These balances have these amounts (others are not checked).
    public var balances: Located<[String: Int]>?
    /// These balances are overdrawn by these amounts (0: not overdrawn; others are not checked).
    public var overdrawn: Located<[String: Int]>?
    /// The transactions the store holds unfinished for the device.
    public var unfinished: Located<UnfinishedExpectation>?
    /// The latest download of each product named.
    public var downloads: Located<[String: DownloadExpectation]>?
    /// Exactly these products are on the device's receipt.
    public var receipt: Located<Set<String>>?
    /// Messages the UI received since the previous `expect`, in this order (others may come between).
    public var told: Located<[String]>?
    /// What became of Ask to Buy requests, by purchase (`as` names or product identifiers).
    public var askToBuy: Located<[String: AskToBuyState]>?

    /// Creates an expectation; every key absent.
    public init(features: Located<Set<String>>? = nil, owns: Located<Set<String>>? = nil, subscriptions: Located<Set<String>>? = nil,
                balances: Located<[String: Int]>? = nil, unfinished: Located<UnfinishedExpectation>? = nil,
                downloads: Located<[String: DownloadExpectation]>? = nil, receipt: Located<Set<String>>? = nil, told: Located<[String]>? = nil,
                askToBuy: Located<[String: AskToBuyState]>? = nil, overdrawn: Located<[String: Int]>? = nil) {
        self.features = features
        self.overdrawn = overdrawn
        self.owns = owns
        self.subscriptions = subscriptions
        self.balances = balances
        self.unfinished = unfinished
        self.downloads = downloads
        self.receipt = receipt
        self.told = told
        self.askToBuy = askToBuy
    }
}

/// `unfinished`: a count, or the purchases by name.
public enum UnfinishedExpectation: Sendable, Hashable {
    /// How many.
    case count(Int)
    /// Which (`as` names or product identifiers).
    case purchases([String])
}

/// What a download should be.
public struct DownloadExpectation: Sendable, Hashable {
    /// The download's state.
    public var state: DownloadState
    /// Where it went, when checked.
    public var storage: ContentStorage?

    /// Creates an expectation.
    public init(state: DownloadState, storage: ContentStorage? = nil) {
        self.state = state
        self.storage = storage
    }
}

