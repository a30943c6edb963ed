/// Where steps put the effects they ask for: a plan's run hands one buffer
/// to each of its steps in turn, and each appends its effects after those of
/// the steps before it.
///
/// A step appends rather than returns an array, so that running a plan
/// allocates no array per step: one buffer goes through the whole plan (a
/// runner may keep one for all its transactions, emptied between them with
/// its capacity kept). A step sees what the steps before it appended (the
/// buffer is a collection) but cannot change or remove it; when a step
/// throws, what it appended is discarded, so a failed step has no effect.
///
/// ```swift
/// func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
///     effects.append(.custom(step: name, detail: "\(context.transaction.productID) x\(context.transaction.quantity)"))
/// }
/// ```
public struct EffectBuffer: Sendable, RandomAccessCollection, Equatable {
    @usableFromInline var storage: [Effect]

    /// An empty buffer.
    public init() { storage = [] }

    /// A buffer holding these effects, in order.
    public init(_ effects: some Sequence<Effect>) { storage = Array(effects) }

    /// Appends an effect after those already in the buffer.
    @inlinable
    public mutating func append(_ effect: Effect) { storage.append(effect) }

    /// Appends effects, in order, after those already in the buffer.
    @inlinable
    public mutating func append(contentsOf effects: some Sequence<Effect>) { storage.append(contentsOf: effects) }

    /// The position of the first effect.
    @inlinable
    public var startIndex: Int { storage.startIndex }

    /// The position after the last effect.
    @inlinable
    public var endIndex: Int { storage.endIndex }

    /// The effect at a position.
    @inlinable
    public subscript(position: Int) -> Effect { storage[position] }

    /// Empties the buffer for the next transaction, keeping its memory.
    package mutating func removeAll() { storage.removeAll(keepingCapacity: true) }

    /// Drops the effects from `position` on: those a failed step appended.
    package mutating func discard(from position: Int) { storage.removeSubrange(position...) }

    /// Drops one effect (a plugin's `finish`, which only the queue's `finish` step does).
    package mutating func remove(at position: Int) { storage.remove(at: position) }
}
