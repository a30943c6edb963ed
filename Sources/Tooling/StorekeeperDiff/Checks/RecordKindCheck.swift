import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// What a user-defaults or iCloud record holds changed.
    public static let recordKind = DiffCheck(
        id: "diff-record-kind",
        severity: .warning,
        summary: "A user-defaults or iCloud record keeps holding what existing records hold (a flag or a receipt copy).",
        rationale: """
            With user defaults or iCloud the app keeps either a value (a flag) or a copy of the \
            transaction's receipt, which resists tampering (Delivering Products: Persisting a Value / a \
            Receipt in User Defaults or iCloud). Changing which one leaves every existing record of the \
            other kind: code that now checks a receipt copy finds flags it cannot verify, and code that now \
            reads a flag finds receipt data. The queue reads both kinds, so this is a warning: make sure \
            the app's own reading code accepts the old kind until each record is written again.
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
                    persistence: icloud
                    restore: icloud
                """,
                new: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: ↓receipt}
                    restore: icloud
                """),
        ],
        nonTriggering: [
            DiffExample(
                old: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: icloud
                    restore: icloud
                """,
                new: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: flag}
                    restore: icloud
                """),
        ]
    ) { context, report in
        for pair in context.pairs where pair.sameType && pair.new.type.value.isOwned {
            let old = pair.old.persistence, new = pair.new.persistence
            guard old.strategy.value == new.strategy.value, old.strategy.value == .userDefaults || old.strategy.value == .icloud,
                  old.effectiveRecord != new.effectiveRecord
            else { continue }
            let reading = new.effectiveRecord == .receipt
                ? "code that verifies a receipt copy finds flags it cannot verify"
                : "code that reads a flag finds receipt copies instead"
            let notes = (old.record.map { [DiffNotes.was("record: \($0.value.rawValue)", at: $0)] } ?? [])
                + DiffNotes.inherited(by: pair.new, new.isInherited)
            report.report(
                "'\(pair.id)' now keeps a \(new.effectiveRecord == .receipt ? "receipt copy" : "flag") \(RecordPlace.phrase(new.strategy.value)), but the records already kept hold a \(old.effectiveRecord == .receipt ? "receipt copy" : "flag"): \(reading); make the app accept both kinds until every record is written again (docs/diff.md#diff-record-kind)",
                at: new.record.map(\.range) ?? new.strategy.range, notes: notes)
        }
    }
}
