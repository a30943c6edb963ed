import Hummingbird
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperServerStorage

extension ServerRoutes {
    /// `GET /v1/content/{path...}[?environment=sandbox]`: a file of server-delivered content, to a
    /// user whose current entitlements (``Entitlements``) own a product whose `content` is
    /// `{source: server}` at that path (its `path`, else its id), or, for a consumable, who holds
    /// an unrevoked purchase of it; 403 `not-owned` to anyone else (an expired subscription, an
    /// ended non-renewing term, a refund), 404 when no product or no
    /// file has the path (a path that would leave the store included). `ETag` and
    /// `Content-Length` always; `Range: bytes=...` gives 206 (or 416 past the end) unless an
    /// `If-Range` names another version, which gives the whole file.
    @Sendable func content(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let raw = request.uri.path.dropFirst("/v1/content/".count)
        var segments: [String] = []
        for segment in raw.split(separator: "/", omittingEmptySubsequences: false) {
            // A segment that is empty, `.` or `..` once decoded, or holds a `/`, could leave the folder: not found.
            guard let decoded = ServerPath.decodedSegment(segment), FolderContentStore.isPlainName(decoded) else {
                throw APIError(.notFound, .noSuchContent, "no content at that path")
            }
            segments.append(decoded)
        }
        let path = segments.joined(separator: "/")
        let products = configuration.policy.products.filter { product in
            guard let content = product.content, content.source == .server else { return false }
            return (content.path ?? product.id) == path
        }
        guard !products.isEmpty else { throw APIError(.notFound, .noSuchContent, "no product's content is at '\(path)'") }
        let productIDs = Set(products.map(\.id))
        let environment = try environment(of: request)
        let entitled = try await entitlements(of: user, in: environment)
        // Content follows current entitlements: an expired subscription or an ended pass no longer downloads.
        // A consumable is never owned: its content is the holder's of an unrevoked purchase of it.
        let consumables = Set(products.filter { $0.type == .consumable }.map(\.id))
        var owns = !productIDs.isDisjoint(with: entitled.products)
        if !owns, !consumables.isEmpty {
            owns = try await storage.transactions(of: user).contains {
                $0.environment == environment && $0.revocationDate == nil && consumables.contains($0.productID)
            }
        }
        guard owns else {
            throw APIError(.forbidden, .notOwned, "the content at '\(path)' is for \(productIDs.sorted().joined(separator: ", ")), which this user does not own")
        }
        guard let store = configuration.content, let file = try await store.file(at: segments) else {
            throw APIError(.notFound, .noSuchContent, "no file at '\(path)'")
        }
        var headers: HTTPFields = [.eTag: file.etag, .contentType: "application/octet-stream", .acceptRanges: "bytes"]
        var range: (start: Int64, end: Int64) = (0, file.size - 1)
        var status = HTTPResponse.Status.ok
        if let header = request.headers[.range], request.headers[.ifRange].map({ $0 == file.etag }) ?? true {
            switch ByteRange(header: header, size: file.size) {
            case let .satisfiable(start, end):
                range = (start, end)
                status = .partialContent
                headers[.contentRange] = "bytes \(start)-\(end)/\(file.size)"
            case .unsatisfiable:
                throw APIError(
                    .rangeNotSatisfiable, .rangeNotSatisfiable, "the range starts at or past the end of the \(file.size) bytes",
                    headers: [.contentRange: "bytes */\(file.size)"])
            case .ignored:
                break
            }
        }
        let (first, last) = range
        let length = max(0, last - first + 1)
        headers[.contentLength] = String(length)
        let read = file.read
        let body = ResponseBody(contentLength: Int(length)) { writer in
            var offset = first
            while offset <= last {
                let count = Int(min(Int64(Self.contentChunk), last - offset + 1))
                let bytes = try await read(offset, count)
                guard !bytes.isEmpty else { throw APIError(.internalServerError, .internal, "the content file shrank while it was read") }
                try await writer.write(ByteBuffer(bytes: bytes))
                offset += Int64(bytes.count)
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// How much of a content file is read at once.
    static let contentChunk = 256 << 10
}

extension ServerRoutes {
    /// The content feature, under `/v1` behind client authentication: `GET content/**`.
    var contentRoutes: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        routes.get("content/**", use: content)
        return routes
    }
}
