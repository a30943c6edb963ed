/// Where the files of server-delivered content (`content: {source: server}`)
/// are read from. The content route decides who may read what; a store only
/// finds files, and never one outside itself.
public protocol ContentStore: Sendable {
    /// The file at `segments` (each decoded, none empty, `.` or `..`), or nil when there is none.
    func file(at segments: [String]) async throws -> ContentFile?
}

/// A file of content: its size, a validator for `If-Range`, and its bytes.
public struct ContentFile: Sendable {
    /// Its size in bytes.
    public var size: Int64
    /// A strong ETag, quotes included (`"c7-1048576"`): it changes when the file does.
    public var etag: String
    /// Reads up to `count` bytes at `offset`.
    public var read: @Sendable (_ offset: Int64, _ count: Int) async throws -> [UInt8]

    /// A file.
    public init(size: Int64, etag: String, read: @escaping @Sendable (_ offset: Int64, _ count: Int) async throws -> [UInt8]) {
        self.size = size
        self.etag = etag
        self.read = read
    }
}
