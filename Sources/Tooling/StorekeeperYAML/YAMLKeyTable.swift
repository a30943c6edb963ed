/// A set of mapping keys known in advance, matched by length and bytes
/// without making a `String` of the key: decoders look up every key of every
/// mapping, and a catalog has hundreds of thousands of them.
///
/// Declare the keys as a `String`-valued enumeration and keep one table:
/// ```swift
/// enum ProductKey: String, CaseIterable { case id, type, price }
/// static let productKeys = YAMLKeyTable<ProductKey>()
/// switch pair.key.key(in: productKeys) { case .id?: ... case nil: unknown }
/// ```
///
/// A table lives in raw memory that is never freed: tables are meant to be
/// static (a few hundred bytes each, made once), and reading raw memory costs
/// no reference counting on the hot path, where a global array would.
public struct YAMLKeyTable<Key: CaseIterable & RawRepresentable & Sendable>: @unchecked Sendable where Key.RawValue == String {
    /// For each byte length, the range of `entries` with keys of that length.
    @usableFromInline let ranges: UnsafeMutableBufferPointer<(start: Int32, end: Int32)>
    /// The keys, ordered by length: where their bytes are in `bytes`, and the key.
    @usableFromInline let entries: UnsafeMutableBufferPointer<(offset: Int32, key: Key)>
    /// Every key's UTF-8 bytes, one after another.
    @usableFromInline let bytes: UnsafeMutableBufferPointer<UInt8>

    /// Builds the table from every case of `Key`.
    public init() {
        let keys = Key.allCases.map { (bytes: Array($0.rawValue.utf8), key: $0) }.sorted { $0.bytes.count < $1.bytes.count }
        let longest = keys.map(\.bytes.count).max() ?? 0
        ranges = .allocate(capacity: longest + 1)
        ranges.initialize(repeating: (0, 0))
        entries = .allocate(capacity: keys.count)
        bytes = .allocate(capacity: max(1, keys.reduce(0) { $0 + $1.bytes.count }))
        var offset = 0
        for (position, entry) in keys.enumerated() {
            entries.initializeElement(at: position, to: (Int32(offset), entry.key))
            for byte in entry.bytes {
                bytes[offset] = byte
                offset += 1
            }
            let length = entry.bytes.count
            if ranges[length] == (0, 0) { ranges[length] = (Int32(position), Int32(position)) }
            ranges[length].end = Int32(position + 1)
        }
    }

    /// The spellings of every key, in declaration order (for suggestions).
    public var names: [String] { Key.allCases.map(\.rawValue) }
}

extension YAMLNode {
    /// Which key of a table this scalar spells, or nil (also for non-scalars).
    @inlinable public func key<Key>(in table: YAMLKeyTable<Key>) -> Key? {
        let record = record
        let length = Int(record.count)
        guard record.kind == .scalar, length < table.ranges.count else { return nil }
        let range = table.ranges[length]
        guard range.start < range.end else { return nil }
        let text = storage.text
        let start = Int(record.first)
        for position in Int(range.start)..<Int(range.end) {
            let entry = table.entries[position]
            var offset = 0
            while offset < length, text[start + offset] == table.bytes[Int(entry.offset) + offset] { offset += 1 }
            if offset == length { return entry.key }
        }
        return nil
    }
}
