import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// How the app names the user to its server changed while the server keeps records.
    public static let serverIdentity = DiffCheck(
        id: "diff-server-identity",
        severity: .error,
        summary: "The server's user identity (account or device) stays what its records are keyed by.",
        rationale: """
            Your server keeps purchase records under the identity the app sends it: an account the user \
            signs in to, or a device identifier (Delivering Products: Persisting Using Your Own Server; a \
            device identifier cannot restore on another device). Records already kept are keyed by the old \
            identity; after the change the app asks under the new one and finds nothing, so people who \
            bought lose what the server recorded. Keep the identity, or have the server link the old keys \
            to the new ones before the catalog changes. Only catalogs whose products keep or restore \
            records on the server are checked.
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
                    delivery: {model: server, unlocks: [extra]}
                    persistence: server
                    restore: server
                """,
                new: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: server, unlocks: [extra]}
                    persistence: server
                    restore: server
                """,
                oldHeader: """
                    app: {bundle-id: com.example.app}
                    server: {url: "https://store.example.com", identity: account}
                    features: [pro, extra]

                    """,
                newHeader: """
                    app: {bundle-id: com.example.app}
                    server: {url: "https://store.example.com", identity: ↓device}
                    features: [pro, extra]

                    """),
        ],
        nonTriggering: [
            DiffExample(
                old: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: server, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: server, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                oldHeader: """
                    app: {bundle-id: com.example.app}
                    server: {url: "https://store.example.com", identity: account}
                    features: [pro, extra]

                    """,
                newHeader: """
                    app: {bundle-id: com.example.app}
                    server: {url: "https://store.example.com", identity: device}
                    features: [pro, extra]

                    """),
        ]
    ) { context, report in
        guard let oldServer = context.old.server, let newServer = context.new.server,
              oldServer.effectiveIdentity != newServer.effectiveIdentity
        else { return }
        let keeping = context.old.products.filter { $0.persistence.strategy.value == .server || $0.restore.policy.value == .server }
        guard !keeping.isEmpty else { return }
        let old = oldServer.effectiveIdentity, new = newServer.effectiveIdentity
        let notes = oldServer.identity.map { [DiffNotes.was("identity: \($0.value.rawValue)", at: $0)] } ?? []
        let message = "the server now identifies users by \(new.rawValue) instead of by \(old.rawValue), but it keeps records for \(DiffNotes.list(keeping.map(\.id.value))) under the \(old.rawValue): the app would ask under the new identity and find none of them, so people who bought lose what the server recorded; keep `identity: \(old.rawValue)`, or have the server link the old keys to the new ones first (docs/diff.md#diff-server-identity)"
        if let written = newServer.identity {
            report.report(message, at: written, notes: notes)
        } else {
            report.report(message, at: newServer.url, notes: notes)
        }
    }
}
