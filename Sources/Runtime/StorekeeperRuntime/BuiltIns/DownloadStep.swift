import StorekeeperCore

/// `download`: makes the product's associated content available, through
/// the plugin for its source.
public struct DownloadStep: StepPlugin {
    /// `download`.
    public let name = BuiltInStep.download.rawValue
    /// Creates the step.
    package init() {}
    /// Fetches the content.
    public func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
        guard let content = context.product.content else {
            throw .permanent("\(context.product.id) has no content to download")
        }
        let location = try await context.plugins.contentSource(for: content.source).fetch(content, for: context)
        effects.append(.content(location))
    }
}
