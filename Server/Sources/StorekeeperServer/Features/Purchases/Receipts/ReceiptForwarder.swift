import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StorekeeperJSON

/// Verifies receipts the older way (the guide's flow): forwards the app's
/// Base64 receipt data to the App Store's `verifyReceipt` endpoint, with the
/// app's shared secret, and reads the verdict.
///
/// It asks production first (``Configuration/firstEnvironment``) when the
/// caller accepts production; a 21007 (a sandbox receipt) is sent once to the
/// sandbox, a 21008 (a production receipt) once to production, but only to an
/// environment the caller accepts: otherwise the verdict is
/// ``ReceiptVerdict/environmentNotAccepted(environment:status:)`` (a sandbox
/// purchase never counts as production). 21002, 21005, 21009, 21100–21199 and
/// any answer marked `is-retryable` are ``ReceiptVerdict/unavailable(status:reason:)``,
/// as are a network failure, a timeout, an HTTP status other than 200, a
/// redirect (never followed: one could carry the shared secret elsewhere) and
/// an answer larger than ``Configuration/maximumAnswerSize``; 21000 and 21004
/// blame the server's own request and are ``ReceiptVerdict/misconfigured(status:meaning:)``;
/// every other non-zero status is ``ReceiptVerdict/refused(status:meaning:)``
/// with Apple's meaning of it; status 0 is ``ReceiptVerdict/valid(_:)`` with the
/// purchases the receipt proves. Statuses as Apple documents them:
/// https://developer.apple.com/documentation/appstorereceipts/status
/// The shared secret is never logged nor put in a verdict.
///
/// It owns an HTTP client: call ``shutdown()`` when done.
///
/// ```swift
/// let forwarder = ReceiptForwarder(configuration: .init(sharedSecret: secret))
/// switch await forwarder.verify(receiptData: base64, accepting: [.production]) { ... }
/// try await forwarder.shutdown()
/// ```
public struct ReceiptForwarder: Sendable {
    /// Where and how receipts are verified.
    public struct Configuration: Sendable, CustomStringConvertible {
        /// Apple's production endpoint.
        public static let appleProduction = "https://buy.itunes.apple.com/verifyReceipt"
        /// Apple's sandbox endpoint.
        public static let appleSandbox = "https://sandbox.itunes.apple.com/verifyReceipt"

        /// Which endpoint is asked first.
        public enum Environment: String, Sendable {
            /// ``productionURL`` first (Apple's advice: a 21007 then sends it to the sandbox).
            case production
            /// ``sandboxURL`` first (a 21008 then sends it to production).
            case sandbox

            /// The environment verifyReceipt's `environment` names (`Production`, `Sandbox`); nil for another.
            init?(answerEnvironment name: String) {
                switch name.lowercased() {
                case "production": self = .production
                case "sandbox": self = .sandbox
                default: return nil
                }
            }
        }

        /// The production `verifyReceipt` URL.
        public var productionURL: String
        /// The sandbox `verifyReceipt` URL.
        public var sandboxURL: String
        /// The app's shared secret (`password`), needed for auto-renewable subscriptions; never logged.
        public var sharedSecret: String?
        /// Apple's `exclude-old-transactions`: only the latest renewal of each subscription in `latest_receipt_info`.
        public var excludeOldTransactions: Bool
        /// The endpoint asked first.
        public var firstEnvironment: Environment
        /// How long one request may take, connecting included.
        public var timeout: Duration
        /// The largest answer read, in bytes; a larger one is not read.
        public var maximumAnswerSize: Int

        /// A configuration; the defaults are Apple's endpoints, production first, no shared secret,
        /// 30 seconds a request and answers of at most 4 MiB.
        public init(
            productionURL: String = Configuration.appleProduction, sandboxURL: String = Configuration.appleSandbox,
            sharedSecret: String? = nil, excludeOldTransactions: Bool = false, firstEnvironment: Environment = .production,
            timeout: Duration = .seconds(30), maximumAnswerSize: Int = 4 << 20
        ) {
            self.productionURL = productionURL
            self.sandboxURL = sandboxURL
            self.sharedSecret = sharedSecret
            self.excludeOldTransactions = excludeOldTransactions
            self.firstEnvironment = firstEnvironment
            self.timeout = timeout
            self.maximumAnswerSize = maximumAnswerSize
        }

        /// The configuration with the shared secret redacted.
        public var description: String {
            "verifyReceipt production \(productionURL), sandbox \(sandboxURL), \(firstEnvironment) first, password "
                + (sharedSecret == nil ? "none" : "<redacted>") + ", exclude-old-transactions \(excludeOldTransactions)"
        }
    }

    /// What the forwarder was configured with.
    public let configuration: Configuration
    private let client: HTTPClient

    /// A forwarder with its own HTTP client, which follows no redirects.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let timeout = TimeAmount.nanoseconds(Self.nanoseconds(configuration.timeout))
        client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: timeout, read: timeout)))
    }

    /// Shuts the HTTP client down; the forwarder answers nothing after.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Asks the App Store whether `receiptData` (the receipt in standard Base64) is valid, asking
    /// only the endpoints of the environments `accepted` (the server's: a production-only server
    /// passes `[.production]`).
    public func verify(receiptData: String, accepting accepted: Set<Configuration.Environment>) async -> ReceiptVerdict {
        // Refused here rather than sent: Apple would answer 21002, which says to try again.
        guard !receiptData.isEmpty, Data(base64Encoded: receiptData) != nil else {
            return .refused(status: nil, meaning: "the receipt data is not a receipt in standard Base64 with padding (\(receiptData.utf8.count) bytes)")
        }
        guard let first = accepted.contains(configuration.firstEnvironment) ? configuration.firstEnvironment : accepted.first else {
            return .refused(status: nil, meaning: "no App Store environment is accepted, so no receipt can be")
        }
        var environment = first
        var asked: Set<Configuration.Environment> = []
        while true {
            asked.insert(environment)
            let answer: VerifyReceiptAnswer
            do throws(NoAnswer) {
                answer = try await post(receiptData, to: environment)
            } catch {
                return error.verdict
            }
            // Sent to the other environment once; a second "wrong environment" is Apple contradicting itself.
            let other: Configuration.Environment? = switch answer.status {
            case ReceiptStatus.sandboxReceiptSentToProduction: .sandbox
            case ReceiptStatus.productionReceiptSentToSandbox: .production
            default: nil
            }
            if let other {
                // 21007 and 21008 say which environment the receipt is from.
                // https://developer.apple.com/documentation/appstorereceipts/status
                guard accepted.contains(other) else { return .environmentNotAccepted(environment: other, status: answer.status) }
                guard !asked.contains(other) else {
                    return .unavailable(
                        status: answer.status,
                        reason: "both endpoints sent the receipt to the other (\(answer.status): \(ReceiptStatus.meaning(of: answer.status)))")
                }
                environment = other
                continue
            }
            let verdict = Self.verdict(answer, from: environment)
            // An endpoint vouching for a receipt of another environment (its `environment`) is believed
            // no further than the environments accepted.
            if case .valid(let receipt) = verdict, let stated = Configuration.Environment(answerEnvironment: receipt.environment),
               !accepted.contains(stated)
            {
                return .environmentNotAccepted(environment: stated, status: answer.status)
            }
            return verdict
        }
    }

    /// The verdict of an answer that is not a "send it to the other environment".
    static func verdict(_ answer: VerifyReceiptAnswer, from environment: Configuration.Environment) -> ReceiptVerdict {
        let status = answer.status
        if answer.isRetryable == true || ReceiptStatus.isTransient(status) {
            return .unavailable(status: status, reason: ReceiptStatus.meaning(of: status))
        }
        if ReceiptStatus.isServerMisconfiguration(status) {
            return .misconfigured(status: status, meaning: ReceiptStatus.meaning(of: status))
        }
        guard status == ReceiptStatus.valid else { return .refused(status: status, meaning: ReceiptStatus.meaning(of: status)) }
        do {
            return .valid(
                ValidReceipt(
                    environment: answer.environment ?? (environment == .production ? "Production" : "Sandbox"),
                    bundleID: answer.receipt?.bundleID, purchases: try answer.purchases()))
        } catch {
            return .unavailable(status: status, reason: "the App Store's answer is valid but unreadable: \(error)")
        }
    }

    /// One POST to `environment`'s endpoint: its answer read, or the verdict when there is none.
    private func post(_ receiptData: String, to environment: Configuration.Environment) async throws(NoAnswer) -> VerifyReceiptAnswer {
        let url = environment == .production ? configuration.productionURL : configuration.sandboxURL
        var members: [(key: String, value: JSONValue)] = [("receipt-data", .string(receiptData))]
        if let secret = configuration.sharedSecret { members.append(("password", .string(secret))) }
        if configuration.excludeOldTransactions { members.append(("exclude-old-transactions", true)) }
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: JSONWriter(indentation: nil).serialize(.object(members))))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .nanoseconds(Self.nanoseconds(configuration.timeout)))
        } catch {
            throw NoAnswer(.unavailable(status: nil, reason: "the \(environment) endpoint could not be asked: \(error)"))
        }
        guard response.status == .ok else {
            throw NoAnswer(.unavailable(status: nil, reason: "the \(environment) endpoint answered HTTP \(response.status.code), not 200 (redirects are not followed)"))
        }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: configuration.maximumAnswerSize)
        } catch is NIOTooManyBytesError {
            throw NoAnswer(.unavailable(status: nil, reason: "the \(environment) endpoint's answer is larger than \(configuration.maximumAnswerSize) bytes"))
        } catch {
            throw NoAnswer(.unavailable(status: nil, reason: "the \(environment) endpoint's answer could not be read: \(error)"))
        }
        do {
            return try JSONDecoder().decode(VerifyReceiptAnswer.self, from: Data(body.readableBytesView))
        } catch {
            throw NoAnswer(.unavailable(status: nil, reason: "the \(environment) endpoint's answer is not verifyReceipt's JSON: \(error)"))
        }
    }

    /// No answer to read: the verdict instead.
    struct NoAnswer: Error {
        var verdict: ReceiptVerdict
        init(_ verdict: ReceiptVerdict) { self.verdict = verdict }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow
            ? Int64.max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
