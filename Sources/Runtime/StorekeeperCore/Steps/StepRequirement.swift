
/// Something a step needs of the product, the catalog or the situation to do
/// its work. Built-in steps and plugins declare theirs, and the compiler
/// refuses a plan where one is not met: such a step would fail at run time
/// and leave the transaction unfinished.
public enum StepRequirement: Sendable, Hashable {
    /// The catalog declares a `server`.
    case server
    /// The product has content to download (from `apple-hosted` or `server`).
    case downloadableContent
    /// The product's content, when it declares a size, is at most this many bytes.
    case contentSize(atMost: Int64)
    /// The product adds to balances (`grants`).
    case balances
    /// The product is kept (not a consumable) or unlocks a feature.
    case somethingToUnlock
    /// The transaction is in one of these states.
    case states([TransactionState])
    /// The product is of one of these types.
    case productTypes([ProductType])

    /// Why the requirement is not met for a product in a situation, or nil when it is.
    package func unmet(by product: some StepSubject, in situation: PlanSituation, hasServer: Bool) -> String? {
        switch self {
        case .server:
            return hasServer ? nil : "the catalog declares no `server`"
        case .downloadableContent:
            return product.hasDownloadableContent ? nil : "it has no content to download (only content from `apple-hosted` or `server` is downloaded)"
        case .contentSize(let limit):
            guard let size = product.contentSize, size > limit else { return nil }
            return "its content (\(ByteSize(bytes: size))) is larger than the \(ByteSize(bytes: limit)) the step accepts"
        case .balances:
            return !product.grantsBalances ? "it grants no balance (only consumables with `grants` do)" : nil
        case .somethingToUnlock:
            return product.productType == .consumable && !product.unlocksFeatures ? "it is a consumable that unlocks no feature" : nil
        case .states(let states):
            guard !states.contains(situation.state) else { return nil }
            return "it runs only in the \(Self.list(states.map(\.rawValue))) state\(states.count == 1 ? "" : "s")"
        case .productTypes(let types):
            guard !types.contains(product.productType) else { return nil }
            return "it applies only to \(Self.list(types.map(\.rawValue))) products"
        }
    }

    /// The first unmet requirement of a list, or nil when all are met.
    package static func firstUnmet(_ requirements: [StepRequirement], by product: some StepSubject, in situation: PlanSituation, hasServer: Bool) -> String? {
        for requirement in requirements {
            if let reason = requirement.unmet(by: product, in: situation, hasServer: hasServer) { return reason }
        }
        return nil
    }

    private static func list(_ names: [String]) -> String {
        let quoted = names.map { "`\($0)`" }
        guard quoted.count > 1, let last = quoted.last else { return quoted.first ?? "no" }
        return quoted.dropLast().joined(separator: ", ") + " or " + last
    }
}

extension BuiltInStep {
    /// What the step needs: a `download` needs content, a `grant` balances,
    /// `verify-receipt` a server, `present-error` a failed transaction; the
    /// steps that deliver run only for a purchase or a restore (a `grant`
    /// only for a purchase: restoring never adds to a balance).
    package var requirements: [StepRequirement] {
        let delivering: StepRequirement = .states([.purchased, .restored])
        return switch self {
        case .download: [.downloadableContent, delivering]
        case .persist: [delivering]
        case .grant: [.balances, .states([.purchased])]
        case .unlock: [.somethingToUnlock, delivering]
        case .verifyReceipt: [.server, delivering]
        case .presentError: [.states([.failed])]
        case .notify, .finish: []
        }
    }
}

/// What requirements are checked against: a catalog product, or the
/// engine's compiled form of one.
package protocol StepSubject {
    /// The product's type.
    var productType: ProductType { get }
    /// Whether it has content from `apple-hosted` or `server`.
    var hasDownloadableContent: Bool { get }
    /// The declared size of its content in bytes, if any.
    var contentSize: Int64? { get }
    /// Whether it adds to balances.
    var grantsBalances: Bool { get }
    /// Whether it unlocks features.
    var unlocksFeatures: Bool { get }
}
