import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// On the Mac, a flag in the user defaults is the user's to edit.
struct UserDefaultsFlagRule: CatalogRule {
    static let description = RuleDescription(
        id: "user-defaults-flag",
        severity: .warning,
        summary: "On macOS, `user-defaults` persistence records a receipt, not a flag.",
        rationale: """
            On the Mac anyone can change an app's user defaults with the `defaults` command, so a \
            flag or a count kept there can be set without buying anything; a copy of the \
            transaction's receipt cannot be forged that way (Delivering Products: Persisting the \
            Purchase). `record` defaults to `flag`. Non-renewing subscriptions are left to \
            `non-renewing-record`, which rejects `user-defaults` for them on every platform.
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations: {en-US: {title: Unlock, description: Everything}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: ↓user-defaults
                    restore: restore-transactions
                """, app: "app: {bundle-id: com.example.app, platforms: [ios, macos]}"),
            RuleExample("""
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: built-in, grants: {coins: 100}}
                    persistence: {strategy: user-defaults, record: ↓flag}
                    restore: none
                """, app: "app: {bundle-id: com.example.app, platforms: [macos]}"),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations: {en-US: {title: Unlock, description: Everything}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: {strategy: user-defaults, record: receipt}
                    restore: restore-transactions
                """, app: "app: {bundle-id: com.example.app, platforms: [ios, macos]}"),
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations: {en-US: {title: Unlock, description: Everything}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: user-defaults
                    restore: restore-transactions
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        guard let mac = catalog.app.platforms.first(where: { $0.value == .macos }) else { return }
        let note = Diagnostic.Note("the app runs on macOS, where users can edit its defaults", at: mac.location)
        // By index, reading fields in place: copying every product costs more than the check.
        let products = catalog.products
        for index in products.indices where products[index].persistence.strategy.value == .userDefaults {
            let product = products[index]
            guard product.persistence.effectiveRecord == .flag, product.type.value != .nonRenewingSubscription else { continue }
            // Point at `record: flag` when written: that is the value to change.
            let range = product.persistence.record?.range ?? product.persistence.strategy.range
            report.report(
                "on the Mac a flag in the user defaults can be edited with the `defaults` command; write `record: receipt` for \(product.id.value) to keep a copy of its receipt instead",
                at: range, notes: [note] + inheritanceNotes(product, inherited: product.persistence.isInherited))
        }
    }
}
