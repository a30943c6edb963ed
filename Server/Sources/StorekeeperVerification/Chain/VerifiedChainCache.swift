import Crypto
import Foundation
import Synchronization

/// Chains already verified, by their certificates' bytes as sent (base64 of
/// the leaf and the intermediate), each with the leaf's key and the window of
/// time in which every certificate of the chain, root included, is valid: a
/// payload from the same chain signed inside that window needs only its
/// signature checked. Bounded: past ``capacity`` entries the oldest goes.
///
/// Only chains are cached, never a payload's decision.
final class VerifiedChainCache: Sendable {
    // Synchronization's Mutex: the server runs on macOS 15 and Linux, where it exists.

    struct Key: Hashable {
        var leaf: String
        var intermediate: String
    }

    struct Entry {
        /// The leaf's key, which signs the payloads.
        var key: P256.Signing.PublicKey
        /// The latest `notValidBefore` of the chain's certificates.
        var validFrom: Date
        /// The earliest `notValidAfter` of the chain's certificates.
        var validUntil: Date

        /// Whether the chain was valid at `time` (RFC 5280: notBefore ≤ time ≤ notAfter for every certificate).
        func covers(_ time: Date) -> Bool { validFrom <= time && time <= validUntil }
    }

    /// The most chains kept; the App Store signs with few at once.
    let capacity: Int
    /// The entries, and their keys oldest first.
    private let cache = Mutex<(entries: [Key: Entry], order: [Key])>(([:], []))

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The entry for `key` if its chain was valid at `time`.
    func entry(for key: Key, at time: Date) -> Entry? {
        cache.withLock { cache in
            guard let entry = cache.entries[key], entry.covers(time) else { return nil }
            return entry
        }
    }

    /// Remembers a verified chain, evicting the oldest past the capacity.
    func insert(_ entry: Entry, for key: Key) {
        cache.withLock { cache in
            if cache.entries.updateValue(entry, forKey: key) == nil {
                cache.order.append(key)
            }
            while cache.order.count > capacity {
                cache.entries[cache.order.removeFirst()] = nil
            }
        }
    }

    /// How many chains are cached.
    var count: Int {
        cache.withLock { $0.entries.count }
    }
}
