import StorekeeperServerStorage

/// ``Samples`` keeps Sandbox transactions, so grants, spends and balances are Sandbox's unless a test says otherwise.
extension LedgerStorage {
    /// `user`'s Sandbox balances (their nets).
    func balances(of user: String) async throws -> [String: Int] {
        try await balances(of: user, environment: "Sandbox")
    }
}

extension Grant {
    /// A Sandbox grant.
    init(user: String, transactionID: String, balance: String, amount: Int) {
        self.init(user: user, transactionID: transactionID, balance: balance, amount: amount, environment: "Sandbox")
    }
}

extension SpendRequest {
    /// A Sandbox spend.
    init(user: String, key: String, balance: String, amount: Int) {
        self.init(user: user, key: key, balance: balance, amount: amount, environment: "Sandbox")
    }
}
