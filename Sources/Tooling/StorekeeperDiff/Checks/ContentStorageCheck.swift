import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// Where downloaded content is kept on the device changed.
    public static let contentStorage = DiffCheck(
        id: "diff-content-storage",
        severity: .warning,
        summary: "Downloaded content stays in the folder owners' copies are already in, or the app moves them.",
        rationale: """
            StoreKit saves downloads in the caches folder, and the app moves content it must keep to the \
            documents folder, excluded from backups (Delivering Products: Downloading Hosted Content from \
            Apple's Server). Content that owners downloaded before is where the old storage put it; an app \
            that now looks in the other folder does not find it and downloads it again, or fails to. \
            Moving from documents to caches also lets the system purge it. Have the new version move the \
            existing files at its first launch. Without `storage`, content counts as in the caches folder, \
            where StoreKit leaves it.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [extra], content: {source: apple-hosted, size: 45MB, storage: documents}}
                    persistence: receipt
                    restore: restore-transactions
                """,
                new: """
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [extra], content: {source: apple-hosted, size: 45MB, storage: ↓cache}}
                    persistence: receipt
                    restore: restore-transactions
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
                    delivery: {model: built-in, unlocks: [extra], content: {source: apple-hosted, size: 45MB, storage: cache}}
                    persistence: receipt
                    restore: restore-transactions
                """),
        ]
    ) { context, report in
        for pair in context.pairs where pair.sameType && pair.new.type.value.isOwned {
            guard let old = pair.old.delivery.content, let new = pair.new.delivery.content,
                  old.source.value != .bundle, new.source.value != .bundle
            else { continue }
            let from = old.storage?.value ?? .cache, to = new.storage?.value ?? .cache
            guard from != to else { continue }
            var notes = DiffNotes.inherited(by: pair.new, pair.new.delivery.isInherited)
            if let written = old.storage { notes.insert(DiffNotes.was("storage: \(written.value.rawValue)", at: written), at: 0) }
            report.report(
                "'\(pair.id)' now keeps its downloaded content in \(to == .cache ? "the caches folder" : "the documents folder") instead of \(from == .cache ? "the caches folder" : "the documents folder"): what people downloaded before is still in the old folder, where the app no longer looks\(to == .cache ? ", and caches may be purged" : ""); move existing files at the new version's first launch (docs/diff.md#diff-content-storage)",
                at: new.storage.map(\.range) ?? new.source.range, notes: notes)
        }
    }
}
