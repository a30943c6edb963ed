/// Typed Swift generated from a catalog (placeholder: filled in by issue 7).
public struct SwiftGenerator: Sendable {}
