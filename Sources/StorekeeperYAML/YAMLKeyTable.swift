/// A set of mapping keys known in advance, matched by length and bytes
/// without making a `String` of the key: decoders look up every key of every
/// mapping, and a catalog has hundreds of thousands of them.
///
/// Declare the keys as a `String`-valued enumeration and keep one table:
/// ```swift
/// enum ProductKey: String, YAMLKeyEnum { case id, type, price }
/// static let productKeys = YAMLKeyTable<ProductKey>()
/// switch pair.key.key(in: productKeys) { case .id?: ... case nil: unknown }
/// ```
public struct YAMLKeyTable<Key: CaseIterable & RawRepresentable & Sendable>: Sendable where Key.RawValue == String {
    /// Candidates by byte length: the key's bytes and the key.
    @usableFromInline let byLength: [[(bytes: [UInt8], key: Key)]]

    /// Builds the table from every case of `Key`.
    public init() {
        var byLength: [[(bytes: [UInt8], key: Key)]] = []
        for key in Key.allCases {
            let bytes = Array(key.rawValue.utf8)
            while byLength.count <= bytes.count { byLength.append([]) }
            byLength[bytes.count].append((bytes, key))
        }
        self.byLength = byLength
    }

    /// The spellings of every key, in declaration order (for suggestions).
    public var names: [String] { Key.allCases.map(\.rawValue) }
}

extension YAMLNode {
    /// Which key of a table this scalar spells, or nil (also for non-scalars).
    @inlinable public func key<Key>(in table: YAMLKeyTable<Key>) -> Key? {
        let record = record
        guard record.kind == .scalar, Int(record.count) < table.byLength.count else { return nil }
        let candidates = table.byLength[Int(record.count)]
        if candidates.isEmpty { return nil }
        let text = storage.text
        let start = Int(record.first)
        for candidate in candidates {
            var equal = true
            var offset = 0
            for byte in candidate.bytes {
                if text[start + offset] != byte {
                    equal = false
                    break
                }
                offset += 1
            }
            if equal { return candidate.key }
        }
        return nil
    }
}
