import Foundation
import StorekeeperStoreModel

/// The model's fixture catalog (`StoreModelCatalog.yaml`) as an app using StoreKit 1 without a server ships
/// it: the same products, prices, groups, unlocks and grants, delivered on the device (`built-in`), the app
/// receipt as the record of non-consumables and subscriptions (`persistence: receipt`), restored by replaying
/// completed transactions (`restore-transactions`), and the consumable's coins kept in the app's own state.
/// The model's entitlements rules do not depend on where a record is kept, so the model judges this catalog's
/// device as it judges the server's.
public enum StoreKit1DeviceCatalog {
    /// The catalog's text, for `PolicyLoader` or the compiler.
    public static var yaml: String {
        var text = StoreModelCatalog.yaml
        text = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingPrefixSpaces.hasPrefix("server:") }
            .joined(separator: "\n")
        text = text.replacingOccurrences(of: "persistence: server", with: "persistence: receipt")
        text = text.replacingOccurrences(of: "restore: server", with: "restore: restore-transactions")
        text = text.replacingOccurrences(of: "delivery: {model: server,", with: "delivery: {model: built-in,")
        // The consumable keeps its coins in the app's state (the receipt lists it only until finished).
        text = text.replacingOccurrences(of: "    restore: none\n", with: "    restore: none\n    persistence: app-state\n")
        return text
    }
}

private extension Substring {
    var trimmingPrefixSpaces: Substring { drop { $0 == " " } }
}

