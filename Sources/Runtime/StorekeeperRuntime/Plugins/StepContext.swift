public import StorekeeperCore

/// What a step runs with: the transaction, its product, and the plugins and
/// services the host registered.
///
/// A context refers to its product, the registry and the services rather
/// than holding copies of them: the queue makes one per transaction that
/// reaches a plugin step, sharing one `StepEnvironment` across all of them,
/// so making it copies none of a product's strings and arrays. Reading
/// `context.product.id` reads the policy's own product in place.
public struct StepContext: Sendable {
    /// The transaction being handled.
    public let transaction: TransactionInfo
    /// The products, plugins and services this context refers to.
    @usableFromInline let environment: StepEnvironment
    /// The product's position in `environment.products`.
    @usableFromInline let productIndex: Int

    /// The product's policy.
    @inlinable
    public var product: ProductPolicy { environment.products[productIndex] }
    /// The registry, for steps that delegate (to a persistence strategy, a
    /// content source, a receipt validator).
    @inlinable
    public var plugins: PluginRegistry { environment.plugins }
    /// The host's connections to the outside world.
    @inlinable
    public var services: EngineServices { environment.services }

    /// Creates a context for a product given by value (tests, or a host
    /// running plans itself).
    public init(transaction: TransactionInfo, product: ProductPolicy, plugins: PluginRegistry, services: EngineServices = EngineServices()) {
        self.init(transaction: transaction, product: ProductHandle(index: 0),
                  in: StepEnvironment(products: [product], plugins: plugins, services: services))
    }

    /// Creates a context for a product of an environment's policy, copying
    /// nothing of it.
    package init(transaction: TransactionInfo, product: ProductHandle, in environment: StepEnvironment) {
        self.transaction = transaction
        self.environment = environment
        productIndex = product.index
    }
}

/// The host's connections to the outside world, which steps that reach
/// beyond the device use: the app's server and the store's hosted content.
/// Either may be absent; a step that needs one then fails permanently with a
/// reason that names what to provide.
public struct EngineServices: Sendable {
    /// The app's server (the catalog's `server.url`).
    public var server: (any ServerTransport)?
    /// The store's downloads of Apple-hosted content.
    public var hostedContent: (any HostedContentDownloader)?

    /// Services; none by default.
    public init(server: (any ServerTransport)? = nil, hostedContent: (any HostedContentDownloader)? = nil) {
        self.server = server
        self.hostedContent = hostedContent
    }
}

/// Sends requests to the app's server.
public protocol ServerTransport: Sendable {
    /// Sends a request and returns the response; throws `StepFailure` when
    /// the server cannot be reached (transient) or refuses (permanent).
    func send(_ request: ServerRequest) async throws(StepFailure) -> ServerResponse
    /// Downloads a file below the server's content path to the device and
    /// returns where it was put.
    func download(path: String, storage: ContentStorage?) async throws(StepFailure) -> String
    /// Downloads as ``download(path:storage:)`` does, refusing a file whose
    /// size is not `expectedSize` (the catalog's `content.size`) when one is
    /// given. Transports that cannot check it need not implement this: by
    /// default it calls ``download(path:storage:)``.
    func download(path: String, storage: ContentStorage?, expectedSize: Int64?) async throws(StepFailure) -> String
}

extension ServerTransport {
    /// Calls ``download(path:storage:)``, without checking the size.
    public func download(path: String, storage: ContentStorage?, expectedSize: Int64?) async throws(StepFailure) -> String {
        try await download(path: path, storage: storage)
    }
}

/// A request to the app's server: a method, a path below its URL, headers,
/// a body.
public struct ServerRequest: Sendable, Hashable {
    /// `GET`, `POST` or `PUT` (docs/server-contract.md).
    public var method: String
    /// The path below the server's URL, starting with `/` (`/v1/records`).
    public var path: String
    /// Headers the request needs beyond what the transport adds (the
    /// transport adds `Authorization` and `Content-Type`), such as `Range`.
    /// Names are compared without regard to case (``header(_:)``).
    public var headers: [String: String]
    /// The body (JSON), if any.
    public var body: [UInt8]

    /// Creates a request.
    public init(method: String, path: String, headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveEquals(name) }?.value
    }
}

/// The server's answer.
public struct ServerResponse: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The headers the client reads (`ETag`, `Content-Range`, `Content-Type`);
    /// names compared without regard to case (``header(_:)``).
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveEquals(name) }?.value
    }
}

extension String {
    /// Whether the two are equal once ASCII letters are lowercased (header
    /// names are ASCII, RFC 9110 section 5.1).
    fileprivate func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { Self.lower($0) == Self.lower($1) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}

/// Downloads Apple-hosted content through the store.
///
/// A download belongs to a transaction (StoreKit's `SKDownload` is reached
/// through its transaction, and is gone once the transaction is finished),
/// so the transaction's identifier comes with the request.
public protocol HostedContentDownloader: Sendable {
    /// Downloads a product's hosted content for a transaction and returns
    /// where it was put. Throws a transient failure for what can be resumed
    /// (no network, out of space, paused), a permanent one otherwise.
    func download(productID: String, transactionID: String, storage: ContentStorage?) async throws(StepFailure) -> String
}
