/// A product of a compiled policy, found once by id (`CompiledPolicy.product(id:)`)
/// so that each dispatch after is two array reads.
public struct ProductHandle: Sendable, Hashable {
    /// The product's position in `CompiledPolicy.products`.
    public let index: Int

    init(index: Int) { self.index = index }
}
