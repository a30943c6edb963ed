#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte buffer for scalar text, written with `memcpy`: appending
/// a scalar is the most frequent thing the tree builder does, and `Array`'s
/// generic `append(contentsOf:)` costs several times the copy itself.
struct ByteArena {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    mutating func append(_ bytes: UnsafePointer<UInt8>?, count length: Int) {
        guard length > 0, let bytes else { return }
        if count + length > capacity {
            var newCapacity = capacity * 2
            while count + length > newCapacity { newCapacity *= 2 }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: base, count: count)
            base.deallocate()
            base = grown
            capacity = newCapacity
        }
        (base + count).update(from: bytes, count: length)
        count += length
    }

    /// The text of a range, as a `String`.
    func string(at offset: Int, count length: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: base + offset, count: length), as: UTF8.self)
    }

    /// The bytes written so far, valid until the next append.
    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Forgets everything after the first `length` bytes.
    mutating func truncate(to length: Int) { count = min(count, length) }

    /// A copy of a range's bytes.
    func bytes(at offset: Int, count length: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: base + offset, count: length))
    }

    /// Whether two ranges of the same length hold the same bytes.
    func equal(at first: Int, _ second: Int, count length: Int) -> Bool {
        memcmp(base + first, base + second, length) == 0
    }

    /// Hands the buffer over, uncopied: the receiver deallocates it.
    consuming func finish() -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base, count: count)
    }

    /// Frees the buffer without making an array (after a failed parse).
    consuming func discard() {
        base.deallocate()
    }
}
