import Foundation
import Hummingbird
import Logging
import Prometheus
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperVerification

/// The routes `serve` answers: the StorekeeperServer library's router, configured from the
/// prepared settings.
enum ApplicationWiring {
    static func router(
        prepared: PreparedServer, storage: any LedgerStorage, receipts: ReceiptForwarder?, registry: PrometheusCollectorRegistry,
        logger: Logger
    ) throws(UsageError) -> Router<ServerRequestContext> {
        // Production first: the first verifier refuses payloads whose environment cannot be read.
        let ordered = [SignedDataVerifier.Environment.production, .sandbox].compactMap { prepared.verifiers[$0] }
        guard let first = ordered.first else { throw UsageError("no environment is accepted; give --environment production or sandbox") }
        let verifiers: TransactionVerifiers
        do {
            verifiers = ordered.count == 1 ? try TransactionVerifiers(first) : try TransactionVerifiers(first, ordered[1])
        } catch {
            throw UsageError(error.description)
        }
        let tokenSecret: ClientTokenSecret
        do {
            tokenSecret = try ClientTokenSecret(prepared.clientTokenSecret.revealed)
        } catch {
            throw UsageError("\(prepared.settings.origins[SettingKey.clientTokenSecret.name]?.description ?? "the client token secret"): \(error)")
        }
        let operatorKey = try operatorKey(prepared, logger: logger)
        var content: (any ContentStore)?
        if let folder = prepared.settings.contentFolder {
            do {
                content = try FolderContentStore(path: folder)
            } catch {
                throw UsageError("\(prepared.settings.origins[SettingKey.content.name]?.description ?? "--content") \(folder): \(error)")
            }
        }
        let configuration = ServerConfiguration(
            policy: prepared.policy, verifiers: verifiers, clientTokenSecret: tokenSecret, operatorKey: operatorKey, content: content,
            restoreByAnotherUser: prepared.settings.restoreByAnotherUser, receipts: receipts)
        return buildRouter(configuration: configuration, storage: storage, metrics: ServerMetrics(registry: registry))
    }

    /// The configured operator key; without one, a random key no one knows, so that the operator
    /// routes are closed (every request 401) rather than open, and a notice saying so.
    private static func operatorKey(_ prepared: PreparedServer, logger: Logger) throws(UsageError) -> OperatorKey {
        guard let configured = prepared.settings.operatorKey else {
            let key = SettingKey.operatorKey
            logger.notice(
                "no operator key: the operator routes answer 401 to everyone",
                metadata: ["hint": "set \(key.environmentVariable) or \(key.environmentVariable)_FILE, at least \(OperatorKey.minimumLength) bytes"])
            var random = SystemRandomNumberGenerator()
            let unknowable = (0..<48).map { _ in String(UInt8.random(in: 33...126, using: &random), radix: 16) }.joined()
            do {
                return try OperatorKey(unknowable)
            } catch {
                throw UsageError("a closed operator key could not be made: \(error)")
            }
        }
        do {
            return try OperatorKey(configured.revealed)
        } catch {
            throw UsageError("\(prepared.settings.origins[SettingKey.operatorKey.name]?.description ?? "the operator key"): \(error)")
        }
    }
}
