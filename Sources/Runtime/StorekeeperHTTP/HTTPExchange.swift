import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StorekeeperCore
import StorekeeperRuntime

/// Where the body of one answer goes as it arrives: memory (bounded) for
/// the contract's JSON, a file for content. Called on the session's
/// delegate queue only, one call at a time.
protocol HTTPBodySink: AnyObject {
    /// The answer's status and headers have arrived; a failure refuses the
    /// rest (the exchange is cancelled and ends with that failure).
    func begin(_ response: HTTPURLResponse) -> StepFailure?
    /// A piece of the body; a failure refuses the rest.
    func append(_ data: Data) -> StepFailure?
}

/// How an exchange ended.
enum HTTPOutcome {
    /// The whole answer arrived.
    case finished(HTTPURLResponse)
    /// The sink refused the answer.
    case refused(StepFailure)
    /// URLSession failed (no route, a timeout, a connection lost), possibly
    /// after part of the answer arrived.
    case failed(any Error, response: HTTPURLResponse?)
}

/// One request in flight: its sink, and the caller waiting for its end.
///
/// `@unchecked Sendable`: made on the caller's task, then touched only by
/// the session's delegate queue, which is serial (`maxConcurrentOperationCount` 1).
final class HTTPExchange: @unchecked Sendable {
    let sink: any HTTPBodySink
    var response: HTTPURLResponse?
    var refusal: StepFailure?
    private var continuation: CheckedContinuation<HTTPOutcome, Never>?

    init(sink: any HTTPBodySink, continuation: CheckedContinuation<HTTPOutcome, Never>) {
        self.sink = sink
        self.continuation = continuation
    }

    /// Resumes the caller, once.
    func end(_ outcome: HTTPOutcome) {
        continuation?.resume(returning: outcome)
        continuation = nil
    }
}

/// The session's delegate: hands each task's events to its exchange.
/// URLSession keeps its delegate until the session is invalidated, which
/// ``HTTPServerTransport`` does when it goes away.
final class HTTPSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `exchanges` is the only state, and it is behind a lock.
    private let exchanges = Locked<[Int: HTTPExchange]>([:])

    func register(_ exchange: HTTPExchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(of task: URLSessionTask) -> HTTPExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let exchange = exchange(of: dataTask), let response = response as? HTTPURLResponse else {
            return completionHandler(.cancel)
        }
        exchange.response = response
        if let refusal = exchange.sink.begin(response) {
            exchange.refusal = refusal
            return completionHandler(.cancel)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(of: dataTask), exchange.refusal == nil else { return }
        if let refusal = exchange.sink.append(data) {
            exchange.refusal = refusal
            dataTask.cancel()
        }
    }

    /// Redirects are not followed: one could carry the credential to another host.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let refusal = exchange.refusal {
            exchange.end(.refused(refusal))
        } else if let error {
            exchange.end(.failed(error, response: exchange.response))
        } else if let response = exchange.response {
            exchange.end(.finished(response))
        } else {
            exchange.end(.failed(URLError(.badServerResponse), response: nil))
        }
    }
}
