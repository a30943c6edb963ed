package import StorekeeperCore

/// `server`: the app's server serves the content (through the host's
/// `EngineServices.server`), at `GET /v1/content/{path}`, `path` being the
/// content's `path` (the product id when none is given). The catalog's
/// `content.size`, when stated, is the size the file must have.
package struct ServerContentSource: ContentSourcePlugin {
    /// `server`.
    package let source = ContentSource.server
    /// A server to download from.
    package var requirements: [StepRequirement] { [.server] }
    /// Creates the source.
    package init() {}
    /// Downloads the content's path (the product id when none is given).
    package func fetch(_ content: ContentPolicy, for context: StepContext) async throws(StepFailure) -> ContentLocation {
        guard let server = context.services.server else {
            throw .permanent("no server transport for server content; set EngineServices.server")
        }
        let path = try await server.download(path: content.path ?? context.product.id, storage: content.storage,
                                             expectedSize: content.size)
        return ContentLocation(source: .server, path: path, storage: content.storage)
    }
}
