import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import StorekeeperRuntime
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperVerification
import UnixSignals

/// What `serve` does once its settings are known: logging, the policy, the verifiers, metrics, the
/// storage (migrated), then the HTTP server until SIGTERM or SIGINT, then the storage closed.
struct ServerStartup {
    var settings: ServeSettings

    /// How long `serve` waits at start for a database that does not answer yet.
    static let databaseStartupWait: Duration = .seconds(60)

    /// The shortest client token secret accepted: an HS256 key below 256 bits can be guessed.
    static let minimumTokenSecretBytes = ClientTokenSecret.minimumLength

    func run() async throws {
        let writer = LogLineWriter(secrets: secretTexts)
        let level = settings.logLevel
        let format = settings.logFormat
        LoggingSystem.bootstrap { label in StructuredLogHandler(label: label, level: level, format: format, writer: writer) }
        let logger = Logger(label: "storekeeper.server")
        logger.info("starting", metadata: settings.metadata)

        let prepared = try prepare(logger: logger)
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))

        let storage = try await openStorage(logger: logger)
        // Receipts the older way go to the App Store's verifyReceipt through a client of its own, and only
        // when the app's shared secret is configured; without it the route answers receipts-not-configured.
        let receipts = settings.receiptSharedSecret.map { secret in
            ReceiptForwarder(
                configuration: .init(
                    productionURL: settings.verifyReceiptURL, sandboxURL: settings.verifyReceiptSandboxURL, sharedSecret: secret.revealed))
        }
        do {
            let application = Application(
                router: try ApplicationWiring.router(prepared: prepared, storage: storage, receipts: receipts, registry: registry, logger: logger),
                server: .http1(configuration: .init(idleTimeout: .seconds(Int64(settings.idleTimeout)))),
                configuration: ApplicationConfiguration(
                    address: .hostname(settings.host, port: settings.port), serverName: "storekeeper-server",
                    availableConnectionsDelegate: .maximum(settings.maximumConnections, logger: logger)),
                onServerRunning: { channel in
                    let address = channel.localAddress
                    logger.notice("listening", metadata: ["host": "\(address?.ipAddress ?? settings.host)", "port": "\(address?.port ?? settings.port)"])
                },
                logger: logger)
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
        } catch {
            try? await receipts?.shutdown()
            await storage.close()
            logger.error("stopped on an error", metadata: ["error": "\(error)"])
            throw error
        }
        try? await receipts?.shutdown()
        await storage.close()
        logger.notice("stopped")
    }

    /// Every secret's text, and the database password as written and percent-decoded: the log
    /// writer replaces them wherever they appear.
    private var secretTexts: [String] {
        var texts = [settings.clientTokenSecret, settings.operatorKey, settings.receiptSharedSecret].compactMap { $0?.revealed }
        if case .postgres(let url) = settings.database, let password = DatabaseLocation.password(in: url) {
            texts.append(password)
            if let decoded = password.removingPercentEncoding { texts.append(decoded) }
        }
        return texts
    }

    /// The settings checked against each other, the policy loaded and the verifiers made: what the
    /// routes need. Any failure is a usage error (exit status 2).
    private func prepare(logger: Logger) throws(UsageError) -> PreparedServer {
        guard let tokenSecret = settings.clientTokenSecret else {
            let key = SettingKey.clientTokenSecret
            throw UsageError(
                "no client token secret: set \(key.environmentVariable), \(key.environmentVariable)_FILE (a file holding it) or \"\(key.name)\" in the --config file, at least \(Self.minimumTokenSecretBytes) bytes (openssl rand -base64 48 makes one)")
        }
        guard tokenSecret.revealed.utf8.count >= Self.minimumTokenSecretBytes else {
            throw UsageError(
                "the client token secret (\(settings.origins[SettingKey.clientTokenSecret.name]?.description ?? "given")) has \(tokenSecret.revealed.utf8.count) bytes; it needs at least \(Self.minimumTokenSecretBytes) (openssl rand -base64 48 makes one)")
        }
        let policyOrigin = settings.origins[SettingKey.policy.name]?.description ?? "--policy"
        let loaded = try PolicyLoading.load(settings.policyPath, origin: policyOrigin)
        guard let bundleID = settings.bundleID ?? loaded.catalogBundleID else {
            throw UsageError("\(policyOrigin) \(settings.policyPath) is a compiled policy, which does not name the app: give --bundle-id (or \(SettingKey.bundleID.environmentVariable))")
        }
        let roots = try TrustedRoots.load(settings.roots, origin: settings.origins[SettingKey.root.name]?.description ?? "--root")
        var verifiers: [SignedDataVerifier.Environment: SignedDataVerifier] = [:]
        for environment in settings.environments {
            do {
                verifiers[environment] = try SignedDataVerifier(
                    trustedRoots: roots, bundleID: bundleID, environment: environment, appAppleID: settings.appAppleID)
            } catch {
                throw UsageError("the \(environment.rawValue.lowercased()) verifier cannot be made: \(error.message)")
            }
        }
        logger.info(
            "policy loaded",
            metadata: [
                "policy": "\(settings.policyPath)", "source": "\(loaded.source)", "products": "\(loaded.policy.products.count)",
                "bundle-id": "\(bundleID)",
            ])
        return PreparedServer(settings: settings, policy: loaded.policy, bundleID: bundleID, verifiers: verifiers, clientTokenSecret: tokenSecret)
    }

    /// The storage the settings name, migrated (safe when several instances start at once).
    private func openStorage(logger: Logger) async throws(UsageError) -> SQLLedgerStorage {
        let storage: SQLLedgerStorage
        do {
            switch settings.database {
            case .sqlite(let path):
                storage = try SQLLedgerStorage.sqlite(path: path)
            case .postgres(let url):
                storage = try SQLLedgerStorage.postgres(
                    url: url, schema: settings.databaseSchema, maximumConnections: settings.databaseConnections,
                    logger: Logger(label: "storekeeper.storage"))
            }
        } catch {
            throw UsageError("the database \(settings.database) cannot be opened: \(error)")
        }
        // A database starting beside the server (a container, a reboot) may not take connections yet, and
        // a request waits only seconds for one: keep trying for a minute before giving up.
        let deadline = ContinuousClock.now + Self.databaseStartupWait
        while true {
            do {
                try await storage.migrate()
                break
            } catch StorageError.transient(let why) where ContinuousClock.now < deadline {
                logger.notice("the database does not answer yet; trying again", metadata: ["database": "\(settings.database)", "why": "\(why)"])
                try? await Task.sleep(for: .seconds(1))
            } catch {
                await storage.close()
                throw UsageError("the database \(settings.database) cannot be migrated: \(error)")
            }
        }
        logger.info("database ready", metadata: ["database": "\(settings.database)"])
        return storage
    }
}
