package import StorekeeperCore

/// `bundle`: the content ships in the app; nothing is fetched.
package struct BundleContentSource: ContentSourcePlugin {
    /// `bundle`.
    package let source = ContentSource.bundle
    /// Creates the source.
    package init() {}
    /// The content's path in the bundle (the product id when none is given).
    package func fetch(_ content: ContentPolicy, for context: StepContext) async throws(StepFailure) -> ContentLocation {
        ContentLocation(source: .bundle, path: content.path ?? context.product.id)
    }
}
