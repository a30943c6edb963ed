/// A storage that counts a user's records cheaply, for the server's limit of
/// records per user (a count, not a read of every record).
public protocol RecordCounting: Sendable {
    /// How many records `user` has, and whether one of them is `transactionID`'s
    /// (a `PUT` of it replaces it, adding nothing).
    func recordCount(of user: String, holding transactionID: String) async throws -> (count: Int, holds: Bool)
}
