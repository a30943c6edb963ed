import Logging
import StorekeeperServer
import StorekeeperVerification

/// Everything `serve` was configured with, resolved from flags, environment and the configuration
/// file. Its ``description`` lists every setting with where it came from, secrets as `***` and the
/// database URL without its password: it is what `--print-configuration` prints and what the server
/// logs at start.
struct ServeSettings: Sendable, CustomStringConvertible {
    var policyPath: String
    var host: String
    var port: Int
    var database: DatabaseLocation
    /// PostgreSQL only: the schema the ledger's tables live in (`public` when nil).
    var databaseSchema: String?
    /// PostgreSQL only: the most connections this instance opens.
    var databaseConnections: Int
    /// The app's bundle id; nil when it is to be read from the catalog.
    var bundleID: String?
    var appAppleID: Int64?
    var environments: [SignedDataVerifier.Environment]
    /// Files of trusted root certificates (DER or PEM); empty for Apple Root CA - G3.
    var roots: [String]
    var clientTokenSecret: Secret?
    var operatorKey: Secret?
    var receiptSharedSecret: Secret?
    var verifyReceiptURL: String
    var verifyReceiptSandboxURL: String
    var contentFolder: String?
    /// What a transaction kept for one user and posted by another does.
    var restoreByAnotherUser: RestoreByAnotherUser
    /// Seconds a client connection may stay idle (no request in progress) before the server closes it.
    var idleTimeout: Int
    /// The most client connections open at once; more wait in the listen backlog until one closes.
    var maximumConnections: Int
    var logLevel: Logger.Level
    var logFormat: LogFormat
    /// Where each setting came from, by key name; settings left at their default are absent.
    var origins: [String: SettingsLayers.Origin]

    static let defaultPort = 8080
    static let defaultHost = "127.0.0.1"
    static let defaultDatabaseConnections = 20
    /// Longer than the 60 seconds proxies and load balancers keep an idle connection to the server
    /// (nginx's upstream `keepalive_timeout`, AWS ALB's idle timeout), so that they close first and never
    /// send a request on a connection the server is closing.
    static let defaultIdleTimeout = 75
    static let defaultMaximumConnections = 1_000
    static let productionVerifyReceiptURL = "https://buy.itunes.apple.com/verifyReceipt"
    static let sandboxVerifyReceiptURL = "https://sandbox.itunes.apple.com/verifyReceipt"

    /// Each setting's name, its value as shown (secrets `***`, the database URL without its
    /// password) and where it came from.
    var shown: [(name: String, value: String, origin: String)] {
        func secret(_ value: Secret?) -> String { value == nil ? "(not set)" : "***" }
        let rows: [(SettingKey, String)] = [
            (.policy, policyPath),
            (.host, host),
            (.port, String(port)),
            (.database, database.description),
            (.databaseSchema, databaseSchema ?? "(public)"),
            (.databaseConnections, String(databaseConnections)),
            (.bundleID, bundleID ?? "(from the catalog)"),
            (.appAppleID, appAppleID.map(String.init) ?? "(not set)"),
            (.environment, environments.map { $0.rawValue.lowercased() }.joined(separator: ", ")),
            (.root, roots.isEmpty ? "(Apple Root CA - G3, bundled)" : roots.joined(separator: ", ")),
            (.clientTokenSecret, secret(clientTokenSecret)),
            (.operatorKey, secret(operatorKey)),
            (.receiptSharedSecret, secret(receiptSharedSecret)),
            (.verifyReceiptURL, receiptSharedSecret == nil ? "(receipts not verified)" : verifyReceiptURL),
            (.verifyReceiptSandboxURL, receiptSharedSecret == nil ? "(receipts not verified)" : verifyReceiptSandboxURL),
            (.content, contentFolder ?? "(none)"),
            (.restoreByAnotherUser, restoreByAnotherUser.rawValue),
            (.idleTimeout, "\(idleTimeout) s"),
            (.maximumConnections, String(maximumConnections)),
            (.logLevel, logLevel.rawValue),
            (.logFormat, logFormat.rawValue),
        ]
        return rows.map { key, value in (key.name, value, origins[key.name]?.description ?? "default") }
    }

    /// Each setting, `name = value (origin)`, one a line.
    var description: String {
        shown.map { "\($0.name) = \($0.value) (\($0.origin))" }.joined(separator: "\n")
    }

    /// The same as logger metadata, one entry a setting: `value (origin)`.
    var metadata: Logger.Metadata {
        Logger.Metadata(uniqueKeysWithValues: shown.map { ($0.name, .string("\($0.value) (\($0.origin))")) })
    }
}
