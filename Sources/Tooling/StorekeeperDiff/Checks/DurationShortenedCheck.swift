import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// A non-renewing subscription's duration got shorter.
    public static let durationShortened = DiffCheck(
        id: "diff-duration-shortened",
        severity: .error,
        summary: "A non-renewing subscription's duration does not get shorter.",
        rationale: """
            The app, not the store, tracks when a non-renewing subscription ends (Delivering Products: \
            Persisting the Purchase), and the queue works it out from the purchase date and the duration \
            in the catalog now (docs/queue.md: Entitlements). A shorter duration therefore ends every pass \
            already sold early: people lose time they paid for. Keep the duration for this id and sell the \
            shorter pass as a new product. A longer duration gives existing passes the extra time, which \
            takes nothing away. Shorter is decided by the calendar, as the queue computes a pass's end (UTC, \
            Gregorian): for every start day over a leap cycle (1461 days), a pass of the new duration must \
            end no earlier than one of the old, so P3M to P90D and P1Y to P365D are shorter.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: icloud
                """,
                new: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: ↓P1M
                    localizations: {en-US: {title: Season Pass, description: A month of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: icloud
                """),
            // Three months are 89 to 92 days: bought on 1 January 2024, 90 days end on 31 March, not 1 April.
            DiffExample(
                old: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: A season of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: icloud
                """,
                new: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: ↓P90D
                    localizations: {en-US: {title: Season Pass, description: A season of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: icloud
                """),
            // 365 days end a day early for a pass bought in a leap year before March.
            DiffExample(
                old: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P1Y
                    localizations: {en-US: {title: Season Pass, description: A season of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: icloud
                """,
                new: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: ↓P365D
                    localizations: {en-US: {title: Season Pass, description: A season of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: icloud
                """),
        ],
        nonTriggering: [
            // No three months are longer than 92 days.
            DiffExample(
                old: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: A season of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: icloud
                """,
                new: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P92D
                    localizations: {en-US: {title: Season Pass, description: A season of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: icloud
                """),

            DiffExample(
                old: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: icloud
                """,
                new: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P4M
                    localizations: {en-US: {title: Season Pass, description: Four months of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: icloud
                """),
        ]
    ) { context, report in
        for pair in context.pairs where pair.sameType {
            guard let old = pair.old.duration, let new = pair.new.duration,
                  let start = CalendarDate.firstStartEndingEarlier(old: old.value, new: new.value)
            else { continue }
            report.report(
                "'\(pair.id)' now lasts \(new.value) instead of \(old.value): the app works out a pass's end from its purchase date and the duration in the catalog now, so passes already sold would end early (one bought on \(start) would end on \(start.adding(new.value)) instead of \(start.adding(old.value))); keep \(old.value) for '\(pair.id)' and sell the shorter pass under a new id (docs/diff.md#diff-duration-shortened)",
                at: new, notes: [DiffNotes.was("duration: \(old.value)", at: old)])
        }
    }
}
