/// The shape of random lives: how many people, how long, how often each kind of step happens, and how
/// faulty delivery is. One value for every life of a run, so that a seed alone (with these settings)
/// replays a life: ``standard`` is what the suite and the command use unless told otherwise.
public struct LifeSettings: Sendable, Hashable {
    /// How many Apple IDs (each with an app account) a life has.
    public var people: ClosedRange<Int>
    /// How many steps a life takes, checkpoints included.
    public var steps: ClosedRange<Int>
    /// Relative weights of the kinds of steps.
    public var weights: Weights
    /// The chance that a step is followed by a checkpoint (a life always ends with one).
    public var checkpointChance: Double
    /// The chance that a checkpoint is followed by a spend.
    public var spendChance: Double
    /// How faulty delivery is.
    public var faults: DeliveryFaults

    /// The relative weights of a step's kinds; a kind whose action the world refuses is drawn again.
    public struct Weights: Sendable, Hashable {
        /// A purchase of any product.
        public var buy: Int
        /// The clock moves on: minutes to months.
        public var advance: Int
        /// Auto-renew off or on.
        public var autoRenew: Int
        /// A payment method fails, or is fixed.
        public var billing: Int
        /// An upgrade, downgrade or crossgrade.
        public var changeSubscription: Int
        /// A refund (full or partial), a declined refund, a reversed refund or a consumption request.
        public var refunds: Int
        /// Joining or leaving a family.
        public var family: Int
        /// A renewal date extension, a price increase, a consent to one.
        public var developer: Int

        /// Weights.
        public init(buy: Int, advance: Int, autoRenew: Int, billing: Int, changeSubscription: Int, refunds: Int, family: Int, developer: Int) {
            self.buy = buy
            self.advance = advance
            self.autoRenew = autoRenew
            self.billing = billing
            self.changeSubscription = changeSubscription
            self.refunds = refunds
            self.family = family
            self.developer = developer
        }
    }

    /// Settings.
    public init(people: ClosedRange<Int>, steps: ClosedRange<Int>, weights: Weights, checkpointChance: Double, spendChance: Double,
                faults: DeliveryFaults) {
        self.people = people
        self.steps = steps
        self.weights = weights
        self.checkpointChance = checkpointChance
        self.spendChance = spendChance
        self.faults = faults
    }

    /// Short lives of one to four people, every kind of step, every fault: what the suite and
    /// `storekeeper-server-lives` run.
    public static let standard = LifeSettings(
        people: 1...4, steps: 8...28,
        weights: Weights(buy: 8, advance: 7, autoRenew: 2, billing: 2, changeSubscription: 2, refunds: 4, family: 2, developer: 2),
        checkpointChance: 0.2, spendChance: 0.6, faults: .standard)
}
