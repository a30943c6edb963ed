/// Walls the optimizer cannot see through, so that a timed loop is neither deleted nor moved out of
/// the timing for working on values known in advance.
enum Opaque {
    /// `value`, unchanged, through a call the optimizer does not look into: what comes out is, to the
    /// compiler, any value of the type.
    @inline(never) @_optimize(none)
    static func pass<Value>(_ value: Value) -> Value {
        value
    }

    /// Consumes `value` in a call the optimizer does not look into, so that computing it counts as used.
    @inline(never) @_optimize(none)
    static func consume<Value>(_ value: Value) {}
}
