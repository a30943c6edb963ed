public import Foundation

/// What a driver does at one step of a random life, in order, with the server's clock at ``at``.
public struct LifeMoment: Sendable {
    /// The step's number (0: the life's setting up).
    public var step: Int
    /// The world's clock: the model's `now` after the step, which the server's clock must read.
    public var at: Date
    /// What happened in the world, for traces.
    public var happened: String
    /// What the driver does, in order.
    public var events: [LifeEvent]
    /// The action the world performed at this step (nil when only the clock moved, at setting up and at the end).
    /// A device's driver reads it to do what the person did through the app (a purchase through its queue).
    public var action: StoreAction?
    /// What Apple sent at this step, in order, before any fault of delivery: a device's driver delivers these
    /// with faults of its own (StoreKit's, not the network's).
    public var messages: [StoreMessage]

    /// A moment.
    public init(step: Int, at: Date, happened: String, events: [LifeEvent], action: StoreAction? = nil, messages: [StoreMessage] = []) {
        self.step = step
        self.at = at
        self.happened = happened
        self.events = events
        self.action = action
        self.messages = messages
    }
}

/// One thing a driver does.
public enum LifeEvent: Sendable {
    /// Send one message.
    case deliver(LifeDelivery)
    /// The server goes down: nothing is sent until ``serverUp`` (a driver may stop its instances).
    case serverDown
    /// The server is back.
    case serverUp
    /// Every app account's entitlements must now be these (every delivery before this one was made).
    case checkpoint([LifeExpectation])
    /// The app spends a balance; the server must accept it exactly when ``LifeSpend/accepted`` says.
    case spend(LifeSpend)
}

/// What one app account must be entitled to at a checkpoint.
public struct LifeExpectation: Sendable, Equatable {
    /// The app account.
    public var account: String
    /// The model's entitlements of it.
    public var entitlements: ExpectedEntitlements

    /// An expectation.
    public init(account: String, entitlements: ExpectedEntitlements) {
        self.account = account
        self.entitlements = entitlements
    }
}

/// A spend made right after a checkpoint, with the model's verdict.
public struct LifeSpend: Sendable, Hashable {
    /// The app account spending.
    public var account: String
    /// The balance.
    public var balance: String
    /// How much.
    public var amount: Int
    /// The idempotency key (`PUT /v1/spends/{key}`), unique in the life.
    public var key: String
    /// Whether the model accepts it (its net balance is at least `amount`).
    public var accepted: Bool
    /// Whether the app sends it twice (its answer was lost): the second answer must be the same.
    public var repeated: Bool

    /// A spend.
    public init(account: String, balance: String, amount: Int, key: String, accepted: Bool, repeated: Bool) {
        self.account = account
        self.balance = balance
        self.amount = amount
        self.key = key
        self.accepted = accepted
        self.repeated = repeated
    }
}
