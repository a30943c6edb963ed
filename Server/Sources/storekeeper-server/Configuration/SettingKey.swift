import Configuration

/// One setting of `serve`: its key in the configuration file, and how the other layers spell it
/// (flag, environment variable). Secrets have no flag: a command line is visible to every user of
/// the machine (`ps`).
struct SettingKey: Sendable, Hashable {
    /// The key in the `--config` file, kebab-case (`bundle-id`).
    let name: String
    /// Whether the value is a secret: never a flag, always redacted, readable from a file named by
    /// `<name>-file`.
    let isSecret: Bool

    init(_ name: String, secret: Bool = false) {
        self.name = name
        isSecret = secret
    }

    /// The key swift-configuration looks up.
    var configKey: AbsoluteConfigKey { AbsoluteConfigKey([name]) }

    /// `--bundle-id`; nil for a secret.
    var flag: String? { isSecret ? nil : "--\(name)" }

    /// `STOREKEEPER_SERVER_BUNDLE_ID`: the environment provider's spelling of the key prefixed with
    /// `storekeeper.server` (upper case, `_` for anything not a letter or digit).
    var environmentVariable: String {
        "STOREKEEPER_SERVER_" + String(name.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// For a secret, the key naming a file that holds it (`operator-key-file`).
    var fileKey: SettingKey? { isSecret ? SettingKey("\(name)-file") : nil }

    static let config = SettingKey("config")
    static let policy = SettingKey("policy")
    static let host = SettingKey("host")
    static let port = SettingKey("port")
    static let database = SettingKey("database")
    static let databaseSchema = SettingKey("database-schema")
    static let databaseConnections = SettingKey("database-connections")
    static let bundleID = SettingKey("bundle-id")
    static let appAppleID = SettingKey("app-apple-id")
    static let environment = SettingKey("environment")
    static let root = SettingKey("root")
    static let clientTokenSecret = SettingKey("client-token-secret", secret: true)
    static let operatorKey = SettingKey("operator-key", secret: true)
    static let receiptSharedSecret = SettingKey("receipt-shared-secret", secret: true)
    static let verifyReceiptURL = SettingKey("verify-receipt-url")
    static let verifyReceiptSandboxURL = SettingKey("verify-receipt-sandbox-url")
    static let content = SettingKey("content")
    static let restoreByAnotherUser = SettingKey("restore-by-another-user")
    static let idleTimeout = SettingKey("idle-timeout")
    static let maximumConnections = SettingKey("max-connections")
    static let logLevel = SettingKey("log-level")
    static let logFormat = SettingKey("log-format")

    /// Every setting `serve` reads, in the order `--print-configuration` shows them.
    static let all: [SettingKey] = [
        policy, host, port, database, databaseSchema, databaseConnections, bundleID, appAppleID, environment, root,
        clientTokenSecret, operatorKey, receiptSharedSecret, verifyReceiptURL, verifyReceiptSandboxURL, content,
        restoreByAnotherUser, idleTimeout, maximumConnections, logLevel, logFormat,
    ]

    /// Every key a configuration file or a `STOREKEEPER_SERVER_` variable may name (the secrets'
    /// `-file` keys included; `config` only as a variable).
    static let known: [SettingKey] = all + all.compactMap(\.fileKey)
}
