import StorekeeperCore

/// What a step runs with: the transaction, its product, and the plugins and
/// services the host registered.
///
/// A context refers to its product, the registry and the services rather
/// than holding copies of them: the queue makes one per transaction that
/// reaches a plugin step, sharing one ``StepEnvironment`` across all of them,
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
}

/// A request to the app's server: a method, a path below its URL, a body.
public struct ServerRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: String
    /// The path below the server's URL, starting with `/`.
    public var path: String
    /// The body (JSON), if any.
    public var body: [UInt8]

    /// Creates a request.
    public init(method: String, path: String, body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.body = body
    }
}

/// The server's answer.
public struct ServerResponse: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, body: [UInt8] = []) {
        self.status = status
        self.body = body
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
