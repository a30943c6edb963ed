package import StorekeeperCore

/// `apple-hosted`: the store downloads the content (through the host's
/// `EngineServices.hostedContent`).
package struct AppleHostedContentSource: ContentSourcePlugin {
    /// `apple-hosted`.
    package let source = ContentSource.appleHosted
    /// Creates the source.
    package init() {}
    /// Asks the store to download it.
    package func fetch(_ content: ContentPolicy, for context: StepContext) async throws(StepFailure) -> ContentLocation {
        guard let downloader = context.services.hostedContent else {
            throw .permanent("no store downloader for Apple-hosted content; set EngineServices.hostedContent")
        }
        let path = try await downloader.download(productID: context.product.id, transactionID: context.transaction.id, storage: content.storage)
        return ContentLocation(source: .appleHosted, path: path, storage: content.storage)
    }
}
