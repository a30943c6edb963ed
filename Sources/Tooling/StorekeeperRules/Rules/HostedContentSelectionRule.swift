import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Large or many Apple-hosted downloads are restored by the user's choice.
struct HostedContentSelectionRule: CatalogRule {
    static let description = RuleDescription(
        id: "hosted-content-selection",
        severity: .warning,
        summary: "Large Apple-hosted content, or many products of it, restore with `selection: user`.",
        rationale: """
            Restoring replays every completed transaction, and each one that carries Apple-hosted \
            content downloads it again; the user should choose what comes back rather than wait for, \
            or pay cellular data for, everything at once (Restoring Purchased Products: Restoring \
            Completed Transactions; Delivering Products: Downloading Hosted Content from Apple's \
            Server). So a product whose content is over 50 MB (50,000,000 bytes: sizes count in \
            decimal units, as App Store Connect does) restores with `selection: user`, and so do \
            the products of a catalog where more than a handful (over 5) would otherwise all \
            download again. Only `restore-transactions` downloads content, so only it has a \
            selection; `hosted-content-restore` covers the other policies.
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [pro], content: {source: apple-hosted, size: 120MB}}
                    persistence: receipt
                    restore: ↓restore-transactions
                """),
            RuleExample("""
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [pro], content: {source: apple-hosted, size: 0.5GB}}
                    persistence: receipt
                    restore: {policy: restore-transactions, selection: ↓all}
                """),
            RuleExample("""
                  - &edition
                    id: com.example.edition.1
                    type: non-consumable
                    reference-name: Edition 1
                    price: "1.99"
                    localizations: {en-US: {title: Edition, description: One edition}}
                    delivery: {model: built-in, content: {source: apple-hosted, size: 20MB}}
                    persistence: receipt
                    restore: restore-transactions
                  - {<<: *edition, id: com.example.edition.2, reference-name: Edition 2}
                  - {<<: *edition, id: com.example.edition.3, reference-name: Edition 3}
                  - {<<: *edition, id: com.example.edition.4, reference-name: Edition 4}
                  - {<<: *edition, id: com.example.edition.5, reference-name: Edition 5}
                  - {<<: *edition, id: com.example.edition.6, reference-name: Edition 6, restore: ↓restore-transactions}
                  - {<<: *edition, id: com.example.edition.7, reference-name: Edition 7}
                """),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [pro], content: {source: apple-hosted, size: 120MB}}
                    persistence: receipt
                    restore: {policy: restore-transactions, selection: user}
                """),
            RuleExample("""
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [pro], content: {source: apple-hosted, size: 50MB}}
                    persistence: receipt
                    restore: restore-transactions
                """),
            RuleExample("""
                  - &edition
                    id: com.example.edition.1
                    type: non-consumable
                    reference-name: Edition 1
                    price: "1.99"
                    localizations: {en-US: {title: Edition, description: One edition}}
                    delivery: {model: built-in, content: {source: apple-hosted, size: 20MB}}
                    persistence: receipt
                    restore: restore-transactions
                  - {<<: *edition, id: com.example.edition.2, reference-name: Edition 2}
                  - {<<: *edition, id: com.example.edition.3, reference-name: Edition 3}
                  - {<<: *edition, id: com.example.edition.4, reference-name: Edition 4}
                  - {<<: *edition, id: com.example.edition.5, reference-name: Edition 5}
                  - {<<: *edition, id: com.example.edition.6, reference-name: Edition 6, restore: {policy: restore-transactions, selection: user}}
                """),
        ])

    /// Content over this size is restored only when the user picks it: 50 MB, decimal.
    static let largeContent = ByteSize(bytes: 50 * 1_000_000)
    /// More than this many products restoring everything is more than a handful.
    static let handful = 5

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        var restoringAll = 0
        var first: Product?
        var beyondHandful: Product?
        // By index, reading fields in place: copying every product costs more than the check.
        let products = catalog.products
        for index in products.indices where products[index].restore.policy.value == .restoreTransactions {
            let product = products[index]
            guard let content = product.delivery.content, content.source.value == .appleHosted,
                  product.restore.effectiveSelection == .all
            else { continue }
            restoringAll += 1
            if first == nil { first = product }
            if restoringAll == Self.handful + 1 { beyondHandful = product }
            guard let size = content.size, size.value > Self.largeContent else { continue }
            report.report(
                "\(product.id.value) has \(size.value) of Apple-hosted content, more than \(Self.largeContent) to download again without asking; write `selection: user` so that the user chooses what to restore",
                at: Self.selection(of: product),
                notes: [Diagnostic.Note("the content's size is here", at: size.location)]
                    + inheritanceNotes(product, inherited: product.restore.isInherited))
        }
        // One warning for the catalog, at the product that goes past the handful.
        guard let first, let beyondHandful else { return }
        report.report(
            "\(restoringAll) products with Apple-hosted content restore with `selection: all`, so a restore downloads all of them at once; write `selection: user` for \(beyondHandful.id.value) and the others",
            at: Self.selection(of: beyondHandful),
            notes: [Diagnostic.Note("the first of them, \(first.id.value), restores all its content here", at: Self.restoreLocation(of: first))]
                + inheritanceNotes(beyondHandful, inherited: beyondHandful.restore.isInherited))
    }

    /// Where a product's restore policy is: its own, or where it inherits the default.
    static func restoreLocation(of product: Product) -> SourceLocation {
        product.restore.isInherited ? product.location : selection(of: product).start
    }

    /// Where to write `selection: user`: at `selection` when written, else at the policy.
    static func selection(of product: Product) -> SourceRange {
        product.restore.selection?.range ?? product.restore.policy.range
    }
}
