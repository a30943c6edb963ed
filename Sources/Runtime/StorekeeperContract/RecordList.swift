/// The body of `GET /v1/records`: the authenticated user's records.
public struct RecordList: Codable, Hashable, Sendable {
    /// The records.
    public var records: [RecordObject]

    /// A list of `records`.
    public init(records: [RecordObject]) { self.records = records }
}
