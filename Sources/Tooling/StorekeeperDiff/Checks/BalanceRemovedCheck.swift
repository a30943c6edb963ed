import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// A balance that consumables granted is gone from the catalog.
    public static let balanceRemoved = DiffCheck(
        id: "diff-balance-removed",
        severity: .error,
        summary: "A balance that products granted stays declared, even when nothing grants it any more.",
        rationale: """
            People hold what consumables granted them: coins and credits they paid for and have not spent \
            (Delivering Products: Persisting the Purchase, for consumables the app's own state). The queue \
            keeps balances in its grant ledger by name (docs/queue.md: Entitlements), so a balance removed \
            from the catalog, or renamed, leaves what people hold under a name the app no longer reads: a \
            renamed balance starts at zero. Keep the balance declared, even when no product grants it any \
            more, so the app can still show and spend it.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: built-in, grants: {coins: 100}}
                    persistence: app-state
                    restore: none
                """,
                new: """
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of gold}}
                    delivery: {model: built-in, grants: {gold: 100}}
                    persistence: app-state
                    restore: none
                """,
                oldHeader: """
                    app: {bundle-id: com.example.app}
                    balances: [↓coins]

                    """,
                newHeader: """
                    app: {bundle-id: com.example.app}
                    balances: [gold]

                    """),
        ],
        nonTriggering: [
            DiffExample(
                old: """
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: built-in, grants: {coins: 100}}
                    persistence: app-state
                    restore: none
                """,
                new: """
                  - id: com.example.gold
                    type: consumable
                    reference-name: Gold
                    price: "0.99"
                    localizations: {en-US: {title: Gold, description: A bag of gold}}
                    delivery: {model: built-in, grants: {gold: 100}}
                    persistence: app-state
                    restore: none
                """,
                oldHeader: """
                    app: {bundle-id: com.example.app}
                    balances: [coins]

                    """,
                newHeader: """
                    app: {bundle-id: com.example.app}
                    balances: [coins, gold]

                    """),
        ]
    ) { context, report in
        let declared = Set(context.new.balances.map(\.value))
        for balance in context.old.balances where !declared.contains(balance.value) {
            let granters = context.old.products.filter { product in product.delivery.grants.contains { $0.balance.value == balance.value } }
            guard !granters.isEmpty else { continue }
            report.report(
                "balance '\(balance.value)' is gone from the new catalog, but \(DiffNotes.list(granters.map(\.id.value))) granted it: people hold '\(balance.value)' they paid for, kept by name, and a renamed balance starts at zero; keep '\(balance.value)' declared even if nothing grants it any more (docs/diff.md#diff-balance-removed)",
                at: balance)
        }
    }
}
