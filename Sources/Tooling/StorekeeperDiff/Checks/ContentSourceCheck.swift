import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// Where owners get a product's content from changed, or the content is gone.
    public static let contentSource = DiffCheck(
        id: "diff-content-source",
        severity: .warning,
        summary: "A product people own keeps content they can get again: from the bundle, or from a source that serves past buyers.",
        rationale: """
            Owners get a product's content again on a new device or after a reinstall \
            (Delivering Products: Delivering Associated Content). Moving it into the bundle is safe: every \
            copy of the new app has it. Moving it out of the bundle means owners must download it, and \
            Apple-hosted content comes only with restored transactions (Restoring Purchased Products); \
            moving it to your server means the server must serve everyone who bought it, on their receipts. \
            Dropping the content leaves new devices without it. These can be deliberate, so this is a warning.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [extra], content: {source: bundle, path: Tracks/pack.plist}}
                    persistence: receipt
                    restore: restore-transactions
                """,
                new: """
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [extra], content: {source: ↓apple-hosted, size: 45MB}}
                    persistence: receipt
                    restore: restore-transactions
                """),
            DiffExample(
                old: """
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: server, unlocks: [extra], content: {source: server, size: 45MB}}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: ↓server, unlocks: [extra]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ],
        nonTriggering: [
            DiffExample(
                old: """
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [extra], content: {source: apple-hosted, size: 45MB}}
                    persistence: receipt
                    restore: restore-transactions
                """,
                new: """
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [extra], content: {source: bundle, path: Tracks/pack.plist}}
                    persistence: receipt
                    restore: restore-transactions
                """),
        ]
    ) { context, report in
        for pair in context.pairs where pair.sameType && pair.new.type.value.isOwned {
            guard let old = pair.old.delivery.content else { continue }
            let inherited = DiffNotes.inherited(by: pair.new, pair.new.delivery.isInherited)
            let was = DiffNotes.was("content from \(old.source.value.rawValue)", at: old.source)
            guard let new = pair.new.delivery.content else {
                report.report(
                    "'\(pair.id)' no longer has its \(old.source.value.rawValue) content: people who bought it keep the files they have, but a new device or a reinstall gets none; keep the content, or ship it in the bundle (docs/diff.md#diff-content-source)",
                    at: pair.new.delivery.model, notes: [was] + inherited)
                continue
            }
            guard old.source.value != new.source.value, new.source.value != .bundle else { continue }
            let how = new.source.value == .appleHosted
                ? "Apple-hosted content comes only with restored transactions, so they must restore to download it"
                : "your server must serve it to everyone who bought it, on their receipts"
            report.report(
                "'\(pair.id)' now gets its content from \(new.source.value.rawValue) instead of \(old.source.value.rawValue): people who bought it get it the new way on their next device or reinstall, and \(how) (docs/diff.md#diff-content-source)",
                at: new.source, notes: [was] + inherited)
        }
    }
}
