/// What an App Store refund takes back of a balance (coins, credits) that a
/// consumable granted and the user has already spent: a judgement teams
/// make differently, so a catalog states it (`refunds: {spent-balance: ...}`)
/// and the compiled policy carries it to the server and the device.
///
/// Apple decides a consumable's refund (and may ask the app's server, with a
/// CONSUMPTION_REQUEST notification, how much of it was consumed); this says
/// only what the app does with its own ledger once the refund is made.
public enum RefundedSpendPolicy: String, CaseIterable, Hashable, Sendable {
    /// The refund takes back the whole refunded share of the grant; what the
    /// balance cannot cover is owed, and later grants pay it first. The
    /// balance is a plain sum, so the order messages arrive in cannot change it.
    case owe
    /// The refund takes back at most what the balance holds when the refund
    /// is applied; nothing is owed.
    case forgive

    /// The policy of a catalog that does not say: ``owe``.
    public static let `default`: RefundedSpendPolicy = .owe
}
