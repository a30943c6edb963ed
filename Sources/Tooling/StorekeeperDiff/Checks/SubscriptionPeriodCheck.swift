import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// An auto-renewable subscription's period changed.
    public static let subscriptionPeriod = DiffCheck(
        id: "diff-subscription-period",
        severity: .warning,
        summary: "An auto-renewable subscription's period changes only with its subscribers told.",
        rationale: """
            Existing subscribers agreed to be billed every period; a new period applies to them from their \
            next renewal, so tell them first. Where the store gives no expiration date (records kept outside \
            the receipt), the queue works out each subscription's end from its purchase date and the period \
            in the catalog now (docs/queue.md: Entitlements), so current subscriptions end at a different \
            time too. It is a warning: a period can change on purpose, but never silently.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: com.example.premium
                    type: auto-renewable-subscription
                    reference-name: Premium
                    price: "4.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Premium, description: Every feature}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.premium
                    type: auto-renewable-subscription
                    reference-name: Premium
                    price: "4.99"
                    group: premium
                    period: ↓P1W
                    localizations: {en-US: {title: Premium, description: Every feature}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ],
        nonTriggering: [
            DiffExample(
                old: """
                  - id: com.example.premium
                    type: auto-renewable-subscription
                    reference-name: Premium
                    price: "4.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Premium, description: Every feature}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.premium
                    type: auto-renewable-subscription
                    reference-name: Premium
                    price: "4.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Premium, description: Every feature}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.premium.weekly
                    type: auto-renewable-subscription
                    reference-name: Premium Weekly
                    price: "1.49"
                    group: premium
                    period: P1W
                    localizations: {en-US: {title: Premium Weekly, description: "Every feature, weekly"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ]
    ) { context, report in
        for pair in context.pairs where pair.sameType {
            guard let old = pair.old.subscription?.period, let new = pair.new.subscription?.period, old.value != new.value else { continue }
            report.report(
                "'\(pair.id)' now renews every \(new.value.rawValue) instead of every \(old.value.rawValue): current subscribers are billed at the new period from their next renewal, and where the store gives no expiration the queue computes their subscription's end from the new period; tell subscribers first, or sell the new period as a new product in the group (docs/diff.md#diff-subscription-period)",
                at: new, notes: [DiffNotes.was("period: \(old.value.rawValue)", at: old)])
        }
    }
}
