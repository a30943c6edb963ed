import StorekeeperCore
import StorekeeperQueue

/// The `--durability` option's spellings.
enum DrillDurability {
    /// The journal durability `text` names.
    static func parse(_ text: String?, command: String) throws(UsageError) -> JournalDurability {
        switch text {
        case nil, "full": .full
        case "app-crash": .appCrash
        case let other?: throw UsageError("\(command): --durability must be full or app-crash, not '\(other)'")
        }
    }

    /// The spelling of `durability`, to pass it on to a child.
    static func spelling(_ durability: JournalDurability) -> String {
        durability == .full ? "full" : "app-crash"
    }
}
