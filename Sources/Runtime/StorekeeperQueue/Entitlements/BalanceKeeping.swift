import StorekeeperCore
public import StorekeeperRuntime

/// Where a balance is kept, from the persistence of the products that
/// grant it: where a spend of it goes, and what a balance may do.
public enum BalanceKeeping: String, Sendable, Hashable, CaseIterable {
    /// On this device: its journal's grants minus its spends; never below zero.
    case device
    /// In iCloud: every device's grants minus every device's spends. Devices
    /// sync eventually, so two devices can spend the same coins before they
    /// meet: the balance then shows 0 and the excess is `overdrawn`.
    case icloud
    /// On the app's server, which spends it (never below zero) and says
    /// what remains.
    case server

    /// How each of the policy's balances is kept: `server` when every
    /// product granting it keeps its records on the server, `icloud` when
    /// every one keeps them in iCloud, else `device` (a balance granted by
    /// products of several strategies, or by none).
    public static func of(_ policy: CompiledPolicy) -> [String: BalanceKeeping] {
        var strategies: [String: Set<PersistenceStrategy>] = [:]
        for product in policy.products {
            for grant in product.grants { strategies[grant.balance, default: []].insert(product.persistence) }
        }
        var keeping: [String: BalanceKeeping] = [:]
        for balance in policy.balances {
            let used = strategies[balance] ?? []
            keeping[balance] = used == [.server] ? .server : used == [.icloud] ? .icloud : .device
        }
        return keeping
    }
}
