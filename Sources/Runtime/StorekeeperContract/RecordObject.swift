import Foundation
public import StorekeeperCore

/// The record object (docs/server-contract.md, "The record object"): what
/// `PUT /v1/records/{transactionID}` sends and `GET /v1/records` lists, and
/// what the app's record files hold, so that every strategy writes one shape.
///
/// Its members are the wire's; ``validate()`` applies the document's rules,
/// the same on the app's side and the server's.
public struct RecordObject: Codable, Hashable, Sendable {
    /// The product bought.
    public var product: String
    /// The transaction that made the record; the server's key.
    public var transaction: String
    /// The persistence strategy it was kept for (a `PersistenceStrategy` raw value).
    public var strategy: String
    /// `flag`, `receipt` or `transaction` (``Kind``).
    public var kind: String
    /// The transaction's quantity: present exactly when `kind` is `transaction`.
    public var quantity: Int?
    /// The receipt in standard Base64 with padding: present exactly when `kind` is `receipt`.
    public var receipt: String?
    /// The user's id (the payment's `applicationUsername`), when it had one.
    public var user: String?
    /// When the product was bought, in seconds since 1970; may have a fraction.
    public var purchaseDate: Double
    /// When a subscription ends, in the same unit; absent when it does not end.
    public var expirationDate: Double?

    /// The kinds of record.
    public enum Kind: String, Sendable, CaseIterable {
        /// The product was bought.
        case flag
        /// A copy of the receipt.
        case receipt
        /// The transaction and its quantity.
        case transaction
    }

    /// A record object with these members, as they are (``validate()`` checks them).
    public init(product: String, transaction: String, strategy: String, kind: String, quantity: Int? = nil, receipt: String? = nil,
                user: String? = nil, purchaseDate: Double, expirationDate: Double? = nil) {
        self.product = product
        self.transaction = transaction
        self.strategy = strategy
        self.kind = kind
        self.quantity = quantity
        self.receipt = receipt
        self.user = user
        self.purchaseDate = purchaseDate
        self.expirationDate = expirationDate
    }

    /// What the members say, checked against the document's rules.
    public struct Checked: Sendable, Hashable {
        /// The strategy.
        public var strategy: PersistenceStrategy
        /// The kind.
        public var kind: Kind
        /// The receipt's bytes, for a receipt record.
        public var receiptBytes: [UInt8]?
    }

    /// The document's rules: ids not empty, a known strategy and kind, finite
    /// dates, `quantity` (positive) exactly for a transaction record and
    /// `receipt` (standard Base64 with padding) exactly for a receipt record.
    ///
    /// - Throws: ``ContractError`` naming the member at fault and what would be right.
    public func validate() throws(ContractError) -> Checked {
        guard !product.isEmpty else { throw ContractError("product: empty; it must name the product bought") }
        guard !transaction.isEmpty else { throw ContractError("transaction: empty; it must name the transaction that made the record") }
        guard let strategy = PersistenceStrategy(rawValue: strategy) else {
            throw ContractError("strategy: '\(strategy)' is not one of \(PersistenceStrategy.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard purchaseDate.isFinite else { throw ContractError("purchaseDate: not a finite number of seconds") }
        if let expirationDate, !expirationDate.isFinite { throw ContractError("expirationDate: not a finite number of seconds") }
        guard let kind = Kind(rawValue: kind) else { throw ContractError("kind: '\(kind)' is not flag, receipt or transaction") }
        switch kind {
        case .flag:
            guard quantity == nil, receipt == nil else { throw ContractError("a flag record has neither quantity nor receipt") }
            return Checked(strategy: strategy, kind: kind)
        case .receipt:
            guard quantity == nil else { throw ContractError("quantity: not allowed in a receipt record") }
            guard let receipt else { throw ContractError("receipt: missing from a receipt record") }
            guard let bytes = Base64.decode(receipt) else { throw ContractError("receipt: not standard Base64 with padding") }
            return Checked(strategy: strategy, kind: kind, receiptBytes: bytes)
        case .transaction:
            guard receipt == nil else { throw ContractError("receipt: not allowed in a transaction record") }
            guard let quantity else { throw ContractError("quantity: missing from a transaction record") }
            guard quantity > 0 else { throw ContractError("quantity: \(quantity); it must be positive") }
            return Checked(strategy: strategy, kind: kind)
        }
    }
}
