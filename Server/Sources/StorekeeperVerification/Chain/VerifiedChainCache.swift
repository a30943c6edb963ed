import Crypto
import Foundation

/// Chains already verified, by their certificates' bytes as sent (base64 of
/// the leaf and the intermediate), each with the leaf's key and the window of
/// time in which every certificate of the chain, root included, is valid: a
/// payload from the same chain signed inside that window needs only its
/// signature checked. Bounded: past ``capacity`` entries the oldest goes.
///
/// Only chains are cached, never a payload's decision.
final class VerifiedChainCache: @unchecked Sendable {
    // @unchecked: `entries` and `order` are read and written only under `lock`.
    // (StorekeeperCore's `Locked` is `package` access: this package cannot see it.)

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
    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    private var order: [Key] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The entry for `key` if its chain was valid at `time`.
    func entry(for key: Key, at time: Date) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[key], entry.covers(time) else { return nil }
        return entry
    }

    /// Remembers a verified chain, evicting the oldest past the capacity.
    func insert(_ entry: Entry, for key: Key) {
        lock.lock()
        defer { lock.unlock() }
        if entries.updateValue(entry, forKey: key) == nil {
            order.append(key)
        }
        while order.count > capacity {
            entries[order.removeFirst()] = nil
        }
    }

    /// How many chains are cached.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }
}
