import ArgumentParser
import Configuration
import Foundation

/// `storekeeper-server serve` (the default command): serves the contract's routes for one app's
/// policy on SQLite or PostgreSQL until SIGTERM or SIGINT.
///
/// Every setting can be a flag, an environment variable `STOREKEEPER_SERVER_<NAME>` or a key of the
/// `--config` JSON file, in that order of precedence; secrets only the last two (docs/server.md,
/// "Configure it"). Options are optional here, without defaults, so that a flag not given leaves
/// the environment and the file their say.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the contract's routes for an app's policy (the default command).",
        discussion: """
            Each option can also be set by the environment variable STOREKEEPER_SERVER_<NAME> (--bundle-id: \
            STOREKEEPER_SERVER_BUNDLE_ID; lists separated by commas) or by the key "<name>" of the --config \
            JSON file ("bundle-id"): a flag wins over the environment, which wins over the file.

            Secrets are never flags (a command line is visible to every user of the machine): the client \
            token secret, the operator key and the receipt shared secret come from \
            STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET, STOREKEEPER_SERVER_OPERATOR_KEY and \
            STOREKEEPER_SERVER_RECEIPT_SHARED_SECRET, from the same keys in the --config file, or from a \
            file named by the key with -file appended (STOREKEEPER_SERVER_OPERATOR_KEY_FILE=/run/secrets/operator-key).

            Exit status 0 after a graceful shutdown (SIGTERM, SIGINT), 2 when the configuration cannot work.
            """
    )

    @Option(help: ArgumentHelp("The catalog (YAML) or the compiled policy (JSON) the server enforces.", valueName: "path"))
    var policy: String?

    @Option(help: ArgumentHelp("The address to listen on. Default: 127.0.0.1.", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("The port to listen on; 0 for any free port (logged once listening). Default: 8080.", valueName: "port"))
    var port: Int?

    @Option(help: ArgumentHelp("sqlite:PATH or a postgres://USER:PASSWORD@HOST:PORT/DATABASE URL. Default: sqlite:storekeeper-server.sqlite.", valueName: "database"))
    var database: String?

    @Option(name: .customLong("database-schema"), help: ArgumentHelp("PostgreSQL only: the schema the ledger's tables live in. Default: public.", valueName: "name"))
    var databaseSchema: String?

    @Option(name: .customLong("database-connections"), help: ArgumentHelp("PostgreSQL only: the most connections this instance opens. Default: 20.", valueName: "count"))
    var databaseConnections: Int?

    @Option(name: .customLong("bundle-id"), help: ArgumentHelp("The app's bundle id. Default: the catalog's app.bundle-id; required with a compiled policy.", valueName: "id"))
    var bundleID: String?

    @Option(name: .customLong("app-apple-id"), help: ArgumentHelp("The app's App Store id; required to accept production.", valueName: "id"))
    var appAppleID: Int?

    @Option(help: ArgumentHelp("An environment accepted: production or sandbox; repeatable. Default: production with --app-apple-id, else sandbox.", valueName: "environment"))
    var environment: [String] = []

    @Option(name: .customLong("root"), help: ArgumentHelp("A trusted root certificate (DER or PEM); repeatable. Default: Apple Root CA - G3.", valueName: "file"))
    var roots: [String] = []

    @Option(name: .customLong("verify-receipt-url"), help: ArgumentHelp("The App Store's verifyReceipt endpoint (receipts are verified only with the receipt shared secret). Default: Apple's production endpoint.", valueName: "url"))
    var verifyReceiptURL: String?

    @Option(name: .customLong("verify-receipt-sandbox-url"), help: ArgumentHelp("The sandbox verifyReceipt endpoint (status 21007 retries there). Default: Apple's.", valueName: "url"))
    var verifyReceiptSandboxURL: String?

    @Option(help: ArgumentHelp("The folder server-delivered content is served from.", valueName: "folder"))
    var content: String?

    @Option(name: .customLong("restore-by-another-user"), help: ArgumentHelp("What a purchase kept for one user and restored by another does: keep-with-original (refused, 403) or transfer (moved to the restorer). Default: keep-with-original.", valueName: "policy"))
    var restoreByAnotherUser: String?

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Seconds a client connection may stay idle before the server closes it. Default: 75.", valueName: "seconds"))
    var idleTimeout: Int?

    @Option(name: .customLong("max-connections"), help: ArgumentHelp("The most client connections open at once; more wait until one closes. Default: 1000.", valueName: "count"))
    var maximumConnections: Int?

    @Option(name: .customLong("log-level"), help: ArgumentHelp("trace, debug, info, notice, warning, error or critical. Default: info.", valueName: "level"))
    var logLevel: String?

    @Option(name: .customLong("log-format"), help: ArgumentHelp("logfmt (key=value) or json, one line per event, on standard error. Default: logfmt.", valueName: "format"))
    var logFormat: String?

    @Option(help: ArgumentHelp("A JSON file of settings, keyed by the long options' names ({\"port\": 8080}).", valueName: "file"))
    var config: String?

    @Flag(name: .customLong("print-configuration"), help: "Print the settings (secrets hidden) and where each came from, then exit without serving.")
    var printConfiguration = false

    // Secrets given as flags are refused with a word on where to put them, rather than "unknown option".
    @Option(name: .customLong("client-token-secret"), help: .hidden) var clientTokenSecretFlag: String?
    @Option(name: .customLong("operator-key"), help: .hidden) var operatorKeyFlag: String?
    @Option(name: .customLong("receipt-shared-secret"), help: .hidden) var receiptSharedSecretFlag: String?

    func run() async throws {
        try refuseSecretFlags()
        let environment = ProcessInfo.processInfo.environment
        let configFile = config ?? environment.first { $0.key.uppercased() == SettingKey.config.environmentVariable }?.value
        let layers = try await SettingsLayers.make(flags: flagValues(), environment: environment, configFile: configFile)
        let settings = try ServeSettings.resolve(layers)
        if printConfiguration {
            StandardStreams.writeOutput(settings.description + "\n")
            return
        }
        try await ServerStartup(settings: settings).run()
    }

    private func refuseSecretFlags() throws(UsageError) {
        let given: [(String?, SettingKey)] = [
            (clientTokenSecretFlag, .clientTokenSecret), (operatorKeyFlag, .operatorKey), (receiptSharedSecretFlag, .receiptSharedSecret),
        ]
        if let (_, key) = given.first(where: { $0.0 != nil }) {
            throw UsageError(
                "--\(key.name) is not accepted: a command line is visible to every user of the machine; set \(key.environmentVariable), \(key.environmentVariable)_FILE (a file holding it), or \"\(key.name)\" in the --config file")
        }
    }

    /// The flags given, as configuration values (those not given are absent, not defaults).
    private func flagValues() -> [SettingKey: ConfigContent] {
        var values: [SettingKey: ConfigContent] = [:]
        func put(_ key: SettingKey, _ value: String?) { if let value { values[key] = .string(value) } }
        put(.policy, policy)
        put(.host, host)
        if let port { values[.port] = .int(port) }
        put(.database, database)
        put(.databaseSchema, databaseSchema)
        if let databaseConnections { values[.databaseConnections] = .int(databaseConnections) }
        put(.bundleID, bundleID)
        if let appAppleID { values[.appAppleID] = .int(appAppleID) }
        if !environment.isEmpty { values[.environment] = .stringArray(environment) }
        if !roots.isEmpty { values[.root] = .stringArray(roots) }
        put(.verifyReceiptURL, verifyReceiptURL)
        put(.verifyReceiptSandboxURL, verifyReceiptSandboxURL)
        put(.content, content)
        put(.restoreByAnotherUser, restoreByAnotherUser)
        if let idleTimeout { values[.idleTimeout] = .int(idleTimeout) }
        if let maximumConnections { values[.maximumConnections] = .int(maximumConnections) }
        put(.logLevel, logLevel)
        put(.logFormat, logFormat)
        return values
    }
}
