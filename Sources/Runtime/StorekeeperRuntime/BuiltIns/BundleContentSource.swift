public import StorekeeperCore

/// `bundle`: the content ships in the app; nothing is fetched.
public struct BundleContentSource: ContentSourcePlugin {
    /// `bundle`.
    public let source = ContentSource.bundle
    /// Creates the source.
    public init() {}
    /// The content's path in the bundle (the product id when none is given).
    public func fetch(_ content: ContentPolicy, for context: StepContext) async throws(StepFailure) -> ContentLocation {
        ContentLocation(source: .bundle, path: content.path ?? context.product.id)
    }
}
