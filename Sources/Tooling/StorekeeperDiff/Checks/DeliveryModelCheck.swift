import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// Who delivers a product people own changed.
    public static let deliveryModel = DiffCheck(
        id: "diff-delivery-model",
        severity: .warning,
        summary: "A product people own changes delivery model only when the new deliverer can serve every past buyer.",
        rationale: """
            With the built-in model everything ships in the app and the purchase unlocks it; with the \
            server model your server validates the receipt and delivers (Delivering Products; the \
            overview's built-in and server models). People who bought before get the product the new way \
            the next time it is delivered to them: on a restore, a reinstall or a new device. From \
            built-in to server, your server must accept the receipts of everyone who ever bought it; from \
            server to built-in, what your server delivered must now ship in the app. Either can be done on \
            purpose, so this is a warning.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: ↓server, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
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
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: server, grants: {coins: 100}}
                    persistence: app-state
                    restore: none
                """),
        ]
    ) { context, report in
        for pair in context.pairs where pair.sameType && pair.new.type.value.isOwned {
            let old = pair.old.delivery.model, new = pair.new.delivery.model
            guard old.value != new.value else { continue }
            let need = new.value == .server
                ? "your server must accept the receipt of everyone who ever bought it and deliver to them"
                : "what your server delivered must now ship in the app, for everyone who ever bought it"
            report.report(
                "'\(pair.id)' is now delivered by \(new.value == .server ? "your server" : "the app itself (built-in)") instead of \(old.value == .server ? "your server" : "the app itself"): people who bought it get it the new way on their next restore, reinstall or device, so \(need) (docs/diff.md#diff-delivery-model)",
                at: new,
                notes: [DiffNotes.was("delivery model \(old.value.rawValue)", at: old)] + DiffNotes.inherited(by: pair.new, pair.new.delivery.isInherited))
        }
    }
}
