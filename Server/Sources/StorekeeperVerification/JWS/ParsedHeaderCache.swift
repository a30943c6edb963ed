import Foundation
import StorekeeperJSON
import Synchronization

/// Headers already decoded, by their encoded segment's bytes. Every payload
/// the App Store signs with one chain has the same header (`alg` and the
/// three certificates, about 4 KiB of base64url), so decoding it once per
/// chain instead of once per payload saves most of the parsing. Only the
/// decoding is cached: the header's rules and the signature, which covers
/// the header's bytes, are checked for every payload.
///
/// A lookup compares bytes (a few entries, each compared with `memcmp`),
/// cheaper than hashing the segment. Bounded: past ``capacity`` the oldest goes.
final class ParsedHeaderCache: Sendable {
    // Synchronization's Mutex: the server runs on macOS 15 and Linux, where it exists.

    private struct Entry {
        var segment: [UInt8]
        var header: [String: JSONValue]
    }

    let capacity: Int
    private let entries = Mutex<[Entry]>([])

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The decoded header of `segment`, from the cache or from `decode` (then cached).
    func header(
        for segment: ArraySlice<UInt8>, decode: (ArraySlice<UInt8>) throws(VerificationFailure) -> [String: JSONValue]
    ) throws(VerificationFailure) -> [String: JSONValue] {
        if let found = cached(segment) { return found }
        let header = try decode(segment)
        entries.withLock { entries in
            entries.append(Entry(segment: Array(segment), header: header))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
        return header
    }

    private func cached(_ segment: ArraySlice<UInt8>) -> [String: JSONValue]? {
        entries.withLock { entries in
            segment.withUnsafeBytes { wanted in
                for entry in entries.reversed() where entry.segment.count == wanted.count {
                    let equal = entry.segment.withUnsafeBytes { stored in
                        guard let left = stored.baseAddress, let right = wanted.baseAddress else { return wanted.isEmpty }
                        return memcmp(left, right, wanted.count) == 0
                    }
                    if equal { return entry.header }
                }
                return nil
            }
        }
    }

    /// How many headers are cached.
    var count: Int {
        entries.withLock { $0.count }
    }
}
