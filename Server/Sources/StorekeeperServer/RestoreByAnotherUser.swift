/// What the server does when a user posts a transaction it keeps for another
/// user: a purchase restored under another account of the same Apple ID
/// (a transaction without an `appAccountToken`, or one restored by a
/// receipt). A transaction whose `appAccountToken` names another user is
/// always refused (403 `account-mismatch`), whatever this says.
public enum RestoreByAnotherUser: String, Sendable, Hashable, CaseIterable {
    /// The transaction stays with the user who posted it first; the other
    /// user's post is 403 `owned-by-another-user`. The default: a purchase
    /// is never taken from an account without the team choosing so.
    case keepWithOriginal = "keep-with-original"
    /// The transaction moves to the user who posted it, with what it granted
    /// (the balance it still holds) and its subscription, in one database
    /// transaction: the Apple ID's purchases follow whoever signs in with it.
    case transfer
}
