/// A product of a compiled policy, found once by id (`CompiledPolicy.product(id:)`)
/// so that each dispatch after is two array reads.
///
/// A handle belongs to the policy that made it: after loading another
/// policy, find the handles again (a handle from another policy may name
/// another product, or none).
public struct ProductHandle: Sendable, Hashable {
    /// The product's position in `CompiledPolicy.products`.
    public let index: Int

    init(index: Int) { self.index = index }
}
