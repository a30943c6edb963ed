public import StorekeeperCore

/// Makes a product's associated content available (the `download` step asks
/// the product's content source). Registering one for a source replaces the
/// built-in one.
public protocol ContentSourcePlugin: Sendable {
    /// The source it implements.
    var source: ContentSource { get }
    /// What it needs (a `server`, a largest size); checked against every product that uses it.
    var requirements: [StepRequirement] { get }
    /// Fetches the content, and says where it is.
    func fetch(_ content: ContentPolicy, for context: StepContext) async throws(StepFailure) -> ContentLocation
}

extension ContentSourcePlugin {
    /// No requirements, unless the source says otherwise.
    public var requirements: [StepRequirement] { [] }
}
