import StorekeeperServerStorage

/// The harness accepts Sandbox alone, so the tests read and spend Sandbox balances unless they say otherwise.
extension LedgerStorage {
    /// `user`'s Sandbox balances (their nets).
    func balances(of user: String) async throws -> [String: Int] {
        try await balances(of: user, environment: "Sandbox")
    }
}

extension SpendRequest {
    /// A Sandbox spend.
    init(user: String, key: String, balance: String, amount: Int) {
        self.init(user: user, key: key, balance: balance, amount: amount, environment: "Sandbox")
    }
}
