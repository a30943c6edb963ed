import Foundation
public import StorekeeperRuntime
import StorekeeperVerification

/// Everything the server's routes need besides the storage and the metrics
/// registry: the catalog's compiled policy, the transaction verifiers per
/// accepted environment, the client token secret, the operator key, the
/// content store, the limits and the restore policy.
///
/// Its `description` names what is configured and never shows a secret.
public struct ServerConfiguration: Sendable, CustomStringConvertible {
    /// The catalog's compiled policy: products, what they unlock and grant, their content.
    public var policy: CompiledPolicy
    /// The App Store environments accepted, one verifier each.
    public var verifiers: TransactionVerifiers
    /// The secret client tokens are signed with.
    public var clientTokenSecret: ClientTokenSecret
    /// The operator routes' credential.
    public var operatorKey: OperatorKey
    /// Where server-delivered content is read; nil serves none (every content path is 404).
    public var content: (any ContentStore)?
    /// Request body and token sizes.
    public var limits: ServerLimits
    /// What a post of a transaction kept for another user does.
    public var restoreByAnotherUser: RestoreByAnotherUser
    /// How receipts are verified the older way (`POST /v1/receipts/verify`); nil answers that route
    /// 404 `receipts-not-configured`.
    public var receipts: ReceiptForwarder?

    /// A configuration. Secrets are checked where they are made (``ClientTokenSecret``, ``OperatorKey``).
    public init(
        policy: CompiledPolicy, verifiers: TransactionVerifiers, clientTokenSecret: ClientTokenSecret, operatorKey: OperatorKey,
        content: (any ContentStore)? = nil, limits: ServerLimits = ServerLimits(), restoreByAnotherUser: RestoreByAnotherUser = .keepWithOriginal,
        receipts: ReceiptForwarder? = nil
    ) {
        self.policy = policy
        self.verifiers = verifiers
        self.clientTokenSecret = clientTokenSecret
        self.operatorKey = operatorKey
        self.content = content
        self.limits = limits
        self.restoreByAnotherUser = restoreByAnotherUser
        self.receipts = receipts
    }

    public var description: String {
        """
        ServerConfiguration(catalog: \(policy.catalog), products: \(policy.products.count), environments: \
        \(verifiers.environments.map(\.rawValue).joined(separator: ", ")), client tokens: HS256 with \(clientTokenSecret), \
        operator key: \(operatorKey), content: \(content.map { String(describing: $0) } ?? "none"), limits: \(limits), \
        restore by another user: \(restoreByAnotherUser.rawValue), \
        receipts: \(receipts.map { String(describing: $0.configuration) } ?? "not verified"))
        """
    }
}
