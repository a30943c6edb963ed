import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
public import StorekeeperCore
public import StorekeeperRuntime

/// The app's server over HTTP: the `ServerTransport` an app gives
/// `EngineServices.server` and `ServerRecordStore`, speaking
/// docs/server-contract.md (v1) through URLSession.
///
/// ```swift
/// let server = try HTTPServerTransport(
///     baseURL: policy.server ?? "https://store.example.com",
///     credential: { try await session.accessToken() },
///     content: ContentFolders(root: URL(fileURLWithPath: NSHomeDirectory())))
/// ```
///
/// - The base URL is checked with `ServerURL`'s rule: `https`, or `http`
///   only to the local machine (`localhost`, `127.0.0.1`, `[::1]`).
/// - Every request asks `credential` for the user's credential and sends it
///   as `Authorization: Bearer`; `nil` sends none (the server answers 401,
///   which is transient: the queue tries again once the app has one).
/// - ``send(_:)`` answers every status the server gives (the clients map it
///   with `ServerResponse.check`); it throws only when there is no answer:
///   a transient failure when the server cannot be reached or does not
///   answer within ``timeout``, a permanent one for an answer larger than
///   ``maxResponseSize``. Retrying is the queue's backoff, never a loop here.
/// - Failures name the request (method and path) and why, never the
///   credential; nothing is logged.
/// - Redirects are not followed (a 3xx is refused like any other status), so
///   the credential never travels to another host.
/// - ``download(path:storage:expectedSize:)`` is the resumable downloader of
///   server-delivered content (`ContentDownload`).
public final class HTTPServerTransport: ServerTransport {
    /// The server's URL, as checked.
    public let baseURL: ServerURL
    /// How long a request may wait with nothing arriving before it fails
    /// (transiently): `URLRequest.timeoutInterval`, an idle time, so a long
    /// download that keeps receiving bytes is not cut off. 30 s by default.
    public let timeout: Duration
    /// The largest answer ``send(_:)`` reads, in bytes; a larger one is
    /// refused (permanently) without being read to its end. 16 MiB by
    /// default. Content downloads go to files and are not bound by it.
    public let maxResponseSize: Int
    /// Where downloaded content is kept.
    public let content: ContentFolders
    /// 16 MiB.
    public static let defaultMaxResponseSize = 16 << 20

    private let credential: @Sendable () async throws -> String?
    private let session: URLSession
    private let delegate: HTTPSessionDelegate
    /// The base URL's path with no trailing `/`, which request paths follow.
    private let prefix: String

    /// A transport to the server at `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: The catalog's `server.url` (`CompiledPolicy.server`).
    ///   - credential: The user's credential, asked for before every request
    ///     (so a token can be refreshed); `nil` when there is none.
    ///   - content: Where downloads are kept, by the catalog's `storage`.
    ///   - timeout: The idle time after which a request fails; more than zero.
    ///   - maxResponseSize: The largest answer read, in bytes; more than zero.
    ///   - configuration: URLSession's configuration, for an app's own
    ///     settings (cellular access, a proxy); a copy is used, with caches
    ///     and cookies turned off and the timeout set.
    /// - Throws: ``HTTPTransportError`` saying what is wrong with the URL or
    ///   the limits, and what would be right.
    public init(baseURL: String, credential: @escaping @Sendable () async throws -> String?, content: ContentFolders,
                timeout: Duration = .seconds(30), maxResponseSize: Int = HTTPServerTransport.defaultMaxResponseSize,
                configuration: URLSessionConfiguration = .ephemeral) throws(HTTPTransportError) {
        let url: ServerURL
        do {
            url = try ServerURL(parsing: baseURL)
        } catch {
            throw .badURL(error)
        }
        guard !url.path.contains("?"), !url.path.contains("#") else { throw .queryInURL(baseURL) }
        guard timeout > .zero else { throw .badLimit("the timeout is \(timeout); it must be more than zero") }
        guard maxResponseSize > 0 else { throw .badLimit("maxResponseSize is \(maxResponseSize); it must be more than zero bytes") }
        self.baseURL = url
        self.credential = credential
        self.content = content
        self.timeout = timeout
        self.maxResponseSize = maxResponseSize
        var prefix = url.path
        while prefix.hasSuffix("/") { prefix.removeLast() }
        self.prefix = prefix
        // A copy: the caller's configuration is not changed.
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? .ephemeral
        // Both: Darwin reads the request's, FoundationNetworking the configuration's too.
        configuration.timeoutIntervalForRequest = timeout.seconds
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Storekeeper HTTPServerTransport"
        delegate = HTTPSessionDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        // The session holds its delegate until it is invalidated.
        session.invalidateAndCancel()
    }

    /// Sends `request` and returns the server's answer, whatever its status.
    ///
    /// - Throws: A transient `StepFailure` when the credential cannot be had,
    ///   the server cannot be reached or does not answer in time; a
    ///   permanent one for a path that is not printable ASCII or an answer
    ///   larger than ``maxResponseSize``.
    public func send(_ request: ServerRequest) async throws(StepFailure) -> ServerResponse {
        let urlRequest = try await urlRequest(for: request)
        let sink = MemorySink(limit: maxResponseSize, request: request)
        switch await perform(urlRequest, into: sink) {
        case .finished(let response):
            return ServerResponse(status: response.statusCode, headers: Self.headers(of: response), body: sink.body)
        case .refused(let failure):
            throw failure
        case .failed(let error, _):
            throw .transient("\(request.method) \(request.path): \(Self.describe(error, timeout: timeout))")
        }
    }

    /// Downloads `GET /v1/content/{path}` into the folder for `storage`, as
    /// `ContentDownload` describes, and returns the file's path.
    public func download(path: String, storage: ContentStorage?) async throws(StepFailure) -> String {
        try await download(path: path, storage: storage, expectedSize: nil)
    }

    /// Downloads as ``download(path:storage:)`` does, refusing a file whose
    /// size is not `expectedSize` (the catalog's `content.size`) when one is
    /// given, and checking `Content-Length` otherwise.
    public func download(path: String, storage: ContentStorage?, expectedSize: Int64?) async throws(StepFailure) -> String {
        try await ContentDownload(transport: self, path: path, storage: storage ?? .cache, expectedSize: expectedSize).run()
    }

    // MARK: - For the downloader

    /// The URLRequest for `request`: the URL, the credential, the headers.
    func urlRequest(for request: ServerRequest) async throws(StepFailure) -> URLRequest {
        let name = "\(request.method) \(request.path)"
        guard request.path.hasPrefix("/"), request.path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
              let url = URL(string: "\(baseURL.scheme)://\(Self.authority(of: baseURL))\(prefix)\(request.path)")
        else {
            throw .permanent("\(name): the path must start with '/' and be printable ASCII without spaces (percent-encode the rest)")
        }
        let token: String?
        do {
            token = try await credential()
        } catch {
            throw .transient("\(name): the app gave no credential (\(type(of: error)))")
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout.seconds)
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        for (field, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: field) }
        if let token { urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if request.header("Accept") == nil { urlRequest.setValue("application/json", forHTTPHeaderField: "Accept") }
        if !request.body.isEmpty {
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
            urlRequest.httpBody = Data(request.body)
        }
        return urlRequest
    }

    /// Runs one exchange to its end; cancelling the calling task cancels it.
    func perform(_ urlRequest: URLRequest, into sink: any HTTPBodySink) async -> HTTPOutcome {
        let task = session.dataTask(with: urlRequest)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                delegate.register(HTTPExchange(sink: sink, continuation: continuation), for: task)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Why no answer came, in words, naming the timeout when it was that.
    static func describe(_ error: any Error, timeout: Duration) -> String {
        guard let error = error as? URLError else { return "the exchange failed (\(error.localizedDescription))" }
        let detail: String = switch error.code {
        case .timedOut: "no answer within the timeout of \(timeout)"
        case .cannotConnectToHost: "the server refused the connection"
        case .cannotFindHost, .dnsLookupFailed: "the server's host name was not found"
        case .networkConnectionLost: "the connection was lost"
        case .notConnectedToInternet: "the device is offline"
        case .cancelled: "the request was cancelled"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
             .serverCertificateHasUnknownRoot:
            "the TLS connection failed (\(error.localizedDescription))"
        default: error.localizedDescription
        }
        return "the server could not be reached: \(detail) (URLError \(error.code.rawValue)); tried again later"
    }

    /// The answer's headers as `[name: value]`.
    static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return headers
    }

    /// `host[:port]`, with brackets around an IPv6 address.
    private static func authority(of url: ServerURL) -> String {
        let host = url.host.contains(":") ? "[\(url.host)]" : url.host
        return url.port.map { "\(host):\($0)" } ?? host
    }
}

extension Duration {
    /// The duration in seconds, as URLRequest counts them.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// Collects an answer in memory, refusing one larger than its limit (by its
/// `Content-Length` before reading, else as it arrives).
final class MemorySink: HTTPBodySink {
    let limit: Int
    let request: ServerRequest
    private(set) var body: [UInt8] = []

    init(limit: Int, request: ServerRequest) {
        self.limit = limit
        self.request = request
    }

    func begin(_ response: HTTPURLResponse) -> StepFailure? {
        response.expectedContentLength > Int64(limit) ? tooLarge("is \(response.expectedContentLength) bytes") : nil
    }

    func append(_ data: Data) -> StepFailure? {
        guard body.count + data.count <= limit else { return tooLarge("has more than \(limit) bytes") }
        body.append(contentsOf: data)
        return nil
    }

    private func tooLarge(_ size: String) -> StepFailure {
        .permanent("\(request.method) \(request.path): the answer \(size), more than the limit of \(limit) bytes (maxResponseSize); it was not read")
    }
}
