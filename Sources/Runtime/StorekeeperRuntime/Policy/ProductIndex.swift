/// Product ids to their positions: what `CompiledPolicy.product(id:)` looks
/// ids up in, built once when the policy is.
///
/// An open-addressing table (linear probing, a power-of-two capacity at
/// least twice the number of ids, so the load factor is at most 0.5) whose
/// slots hold each id's full 64-bit hash, position and arena offset. The ids' UTF-8 bytes
/// sit in one contiguous arena, `offsets[position] ..< offsets[position + 1]`,
/// so a lookup hashes the caller's bytes once, compares 64-bit hashes while
/// probing, and compares bytes only on a hash match: no `String` is
/// retained, released or compared, and nothing is allocated (unless the
/// caller's string is not stored contiguously, which native strings always
/// are: then its bytes are copied once).
///
/// The hash is fixed (unseeded), a wyhash-style mix over 8-byte words. That
/// is acceptable because hash flooding needs the attacker to choose the
/// *keys*: the table is built only from the catalog's own ids, which the
/// catalog's author controls, not whoever sends transactions. An untrusted
/// id can only be *looked up*; it hashes to one slot and its probe ends at
/// the first empty slot, so it costs at most the length of one cluster of
/// catalog ids, which a load factor of at most 0.5 keeps short, and a full
/// byte comparison only on an exact 64-bit hash match. However many distinct
/// ids an attacker tries, no lookup touches more than one cluster, and none
/// changes the table. (Only a catalog whose own ids were chosen to collide
/// could lengthen the clusters, and its author would only slow their own app.)
struct ProductIndex: Sendable {
    /// One slot of the table: an id's hash, position and first byte in the arena, or empty.
    struct Slot: Sendable {
        var hash: UInt64
        /// The id's position in the ids the index was built from; negative when the slot is empty.
        var position: Int32
        /// `offsets[position]`, kept here so that the id's bytes are read without waiting on `offsets`.
        var start: Int32

        static let empty = Slot(hash: 0, position: -1, start: 0)
    }

    /// `capacity` slots, `capacity` a power of two.
    private let slots: [Slot]
    /// `capacity - 1`: a hash's home slot is `hash & mask`.
    private let mask: Int
    /// Every id's UTF-8 bytes, one after the other (a duplicate's are not kept).
    private let arena: [UInt8]
    /// `ids.count + 1` offsets into `arena`: id `position` is `offsets[position] ..< offsets[position + 1]`.
    private let offsets: [Int32]
    /// ANDed into every hash: all ones, except in tests that force every id onto the same hash.
    private let hashMask: UInt64

    /// The number of distinct ids indexed.
    let count: Int

    /// Indexes `ids`, each at its position; of ids that occur more than once,
    /// the first occurrence is the one found.
    ///
    /// Positions and arena offsets are `Int32`: ids past position
    /// `Int32.max - 1`, or past 2 GiB of UTF-8 in all, are not indexed (no
    /// catalog comes near either).
    init(_ ids: [String]) {
        self.init(ids, hashMask: ~0)
    }

    /// Indexes `ids` with every hash ANDed with `hashMask`: `~0` for the real
    /// index; `0` (every id the same hash) lets tests drive probing and the
    /// byte comparison through every slot.
    init(_ ids: [String], hashMask: UInt64) {
        let limit = min(ids.count, Int(Int32.max) - 1)
        var capacity = 2
        while capacity < limit * 2 {
            capacity &<<= 1
        }
        let mask = capacity - 1
        var slots = [Slot](repeating: .empty, count: capacity)
        var arena: [UInt8] = []
        arena.reserveCapacity(ids.prefix(limit).reduce(0) { $0 &+ $1.utf8.count })
        var offsets: [Int32] = [0]
        offsets.reserveCapacity(limit + 1)
        var count = 0

        for id in ids.prefix(limit) {
            let start = arena.count
            guard id.utf8.count <= Int(Int32.max) - start else { break }
            arena.append(contentsOf: id.utf8)
            let length = arena.count - start
            let position = Int32(truncatingIfNeeded: offsets.count - 1)
            let inserted = arena.withUnsafeBytes { arena -> Bool in
                let bytes = UnsafeRawBufferPointer(rebasing: arena[start...])
                let hash = Self.hash(bytes) & hashMask
                var slot = Int(truncatingIfNeeded: hash) & mask
                while slots[slot].position >= 0 {
                    let other = slots[slot]
                    let otherStart = Int(other.start)
                    if other.hash == hash,
                       Int(offsets[Int(other.position) + 1]) - otherStart == length,
                       let base = arena.baseAddress,
                       Self.equal(base + otherStart, base + start, count: length) {
                        return false
                    }
                    slot = (slot &+ 1) & mask
                }
                slots[slot] = Slot(hash: hash, position: position, start: Int32(truncatingIfNeeded: start))
                return true
            }
            if inserted {
                count += 1
            } else {
                arena.removeSubrange(start...)
            }
            offsets.append(Int32(truncatingIfNeeded: arena.count))
        }

        self.slots = slots
        self.mask = mask
        self.arena = arena
        self.offsets = offsets
        self.hashMask = hashMask
        self.count = count
    }

    /// The position of `id` in the ids the index was built from (the first,
    /// if it occurs more than once), or `nil`.
    func index(of id: String) -> Int32? {
        let found = id.utf8.withContiguousStorageIfAvailable { find(UnsafeRawBufferPointer($0)) }
        guard let found else { return indexCopyingUTF8(of: id) }
        return found < 0 ? nil : found
    }

    /// `index(of:)` for a string whose UTF-8 is not stored contiguously (a
    /// lazily bridged one): its bytes copied into an array first.
    func indexCopyingUTF8(of id: String) -> Int32? {
        let found = Array(id.utf8).withUnsafeBytes { find($0) }
        return found < 0 ? nil : found
    }

    /// The position of the id whose UTF-8 is `bytes`, or -1.
    private func find(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        let hash = Self.hash(bytes) & hashMask
        let count = bytes.count
        return slots.withUnsafeBufferPointer { slots in
            arena.withUnsafeBytes { arena in
                offsets.withUnsafeBufferPointer { offsets in
                    var slot = Int(truncatingIfNeeded: hash) & mask
                    // At most half the slots are full, so an empty one ends
                    // every probe; the bound only guards the loop.
                    for _ in 0 ..< slots.count {
                        let candidate = slots[slot]
                        if candidate.position < 0 { return -1 }
                        if candidate.hash == hash {
                            // Offsets only grow and end within the arena: a
                            // matching length keeps the comparison inside it.
                            let start = Int(candidate.start)
                            if Int(offsets[Int(candidate.position) &+ 1]) &- start == count {
                                guard count > 0 else { return candidate.position }
                                if let base = arena.baseAddress, let query = bytes.baseAddress,
                                   Self.equal(base + start, query, count: count) {
                                    return candidate.position
                                }
                            }
                        }
                        slot = (slot &+ 1) & mask
                    }
                    return -1
                }
            }
        }
    }

    // MARK: - Bytes

    /// Whether `count` bytes at `p` and `q` are the same: 8 at a time, the
    /// last 8 read overlapping; under 8, two overlapping 4-byte reads, or bytes.
    @inline(__always)
    private static func equal(_ p: UnsafeRawPointer, _ q: UnsafeRawPointer, count: Int) -> Bool {
        if count >= 8 {
            let last = count &- 8
            var offset = 0
            while offset < last {
                if word(p, offset) != word(q, offset) { return false }
                offset &+= 8
            }
            return word(p, last) == word(q, last)
        }
        if count >= 4 {
            return half(p, 0) == half(q, 0) && half(p, count &- 4) == half(q, count &- 4)
        }
        var offset = 0
        while offset < count {
            if p.load(fromByteOffset: offset, as: UInt8.self) != q.load(fromByteOffset: offset, as: UInt8.self) { return false }
            offset &+= 1
        }
        return true
    }

    // MARK: - Hash

    private static let secret0: UInt64 = 0xa076_1d64_78bd_642f
    private static let secret1: UInt64 = 0xe703_7ed1_a0b4_28db
    /// wyhash's seed step for seed 0: `mix(0 ^ secret0, secret1)`.
    private static let seed: UInt64 = mix(secret0, secret1)

    /// A fixed wyhash-style 64-bit hash of `bytes` (wyhash's structure:
    /// 16 bytes per multiply-fold, the last 16 read as two overlapping
    /// words, short inputs assembled from overlapping 4-byte reads). Not
    /// cryptographic, not seeded; stable only within a process (words are
    /// read in the machine's byte order).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var seed = Self.seed
        var a: UInt64 = 0
        var b: UInt64 = 0
        if let p = bytes.baseAddress, count > 0 {
            if count <= 16 {
                if count >= 4 {
                    let step = (count &>> 3) &<< 2
                    a = (half(p, 0) &<< 32) | half(p, step)
                    b = (half(p, count &- 4) &<< 32) | half(p, count &- 4 &- step)
                } else {
                    a = UInt64(p.load(as: UInt8.self)) &<< 16
                        | UInt64(p.load(fromByteOffset: count &>> 1, as: UInt8.self)) &<< 8
                        | UInt64(p.load(fromByteOffset: count &- 1, as: UInt8.self))
                }
            } else {
                var offset = 0
                var remaining = count
                while remaining > 16 {
                    seed = mix(word(p, offset) ^ secret1, word(p, offset &+ 8) ^ seed)
                    offset &+= 16
                    remaining &-= 16
                }
                a = word(p, count &- 16)
                b = word(p, count &- 8)
            }
        }
        let product = (a ^ secret1).multipliedFullWidth(by: b ^ seed)
        return mix(product.low ^ secret0 ^ UInt64(truncatingIfNeeded: count), product.high ^ secret1)
    }

    /// The 128-bit product of `a` and `b`, its halves XORed.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    @inline(__always)
    private static func word(_ p: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        p.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    @inline(__always)
    private static func half(_ p: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(p.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
