/// What the server does when a user posts a transaction it keeps for another
/// user (a purchase restored under another account).
///
/// Only ``keepWithOriginal`` exists for now; the enum stays open for a
/// `transfer` policy once the storage can move a transaction between users.
public enum RestoreByAnotherUser: String, Sendable, Hashable {
    /// The transaction stays with the user who posted it first; the other
    /// user's post is 403 `owned-by-another-user`.
    case keepWithOriginal = "keep-with-original"
}
