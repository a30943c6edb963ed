/// Why a spend was not made, or not yet.
public enum SpendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `start` has not been called: the journal is not loaded, so the
    /// balance is not known.
    case notStarted
    /// The amount is not 1 or more.
    case invalidAmount(Int)
    /// The balance is not one the catalog declares.
    case unknownBalance(String, suggestion: String?)
    /// The key cannot be used: empty, longer than 256 bytes of UTF-8, or
    /// holding control characters.
    case invalidKey(String)
    /// The key was used already for another spend (another balance or
    /// amount); nothing was spent now.
    case keyReused(key: String, first: String, asked: String)
    /// Not enough: nothing was spent. `available` is nil when the server
    /// refused without saying how much there is.
    case insufficientBalance(balance: String, available: Int?, asked: Int, detail: String?)
    /// The balance is kept in iCloud or on the server, and the queue has
    /// nothing to reach it with (no spend store for iCloud, no server transport).
    case notConfigured(balance: String, missing: String)
    /// The server or the iCloud store cannot be reached now. The spend is
    /// journalled as pending (its amount is held back from the balance): it
    /// is sent again with the same key at the next start, on
    /// `refreshEntitlements()`, or when the app spends with the same key.
    case unavailable(key: String, reason: String)
    /// The server or the iCloud store refused the spend for good; nothing was spent.
    case refused(key: String, reason: String)
    /// The journal could not be read or written; nothing was spent.
    case journal(JournalError)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .notStarted:
            "the queue has not started: call start(observers:) before spending"
        case .invalidAmount(let amount):
            "cannot spend \(amount): an amount is 1 or more"
        case .unknownBalance(let name, let suggestion):
            "no balance '\(name)' in the catalog" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .invalidKey(let key):
            "the spend key '\(key)' cannot be used: a key is 1 to 256 bytes of UTF-8 with no control characters"
        case .keyReused(let key, let first, let asked):
            "the spend key '\(key)' was used for \(first); it cannot be used for \(asked): give each spend a key of its own"
        case .insufficientBalance(let balance, let available?, let asked, _):
            "cannot spend \(asked) \(balance): \(available) available; nothing was spent"
        case .insufficientBalance(let balance, nil, let asked, let detail):
            "cannot spend \(asked) \(balance): the server says there is not enough" + (detail.map { " (\($0))" } ?? "") + "; nothing was spent"
        case .notConfigured(let balance, let missing):
            "cannot spend \(balance): it is kept \(missing)"
        case .unavailable(let key, let reason):
            "the spend '\(key)' could not be sent now (\(reason)); it is kept pending and sent again with the same key at the next start, on refreshEntitlements(), or when spending with the same key"
        case .refused(let key, let reason):
            "the spend '\(key)' was refused: \(reason); nothing was spent"
        case .journal(let error):
            "the spend could not be journalled: \(error); nothing was spent"
        }
    }
}
