import StorekeeperCore
import StorekeeperPlatform

/// A growable buffer of plain values, handed to the finished document
/// without a copy.
///
/// The tree builder appends hundreds of thousands of nodes, children and
/// scalar bytes; an `Array` would do the same work, but the document reading
/// them back through `Array`s held in a class retains and releases the array
/// on every access. Raw buffers the document owns cost nothing to read.
struct RawArena<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "arena index out of range")
            return base[index]
        }
        nonmutating set {
            precondition(index >= 0 && index < count, "arena index out of range")
            base[index] = newValue
        }
    }

    /// The elements of a range, valid until the next append.
    subscript(range: Range<Int>) -> UnsafeBufferPointer<Element> {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "arena range out of bounds")
        return UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// Everything written so far, valid until the next append.
    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        if count + elements.count > capacity { grow(to: count + elements.count) }
        (base + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    mutating func append(contentsOf elements: ArraySlice<Element>) {
        elements.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    /// Forgets everything from `length` on.
    mutating func truncate(to length: Int) { count = min(count, max(0, length)) }

    private mutating func grow(to minimum: Int) {
        var newCapacity = capacity * 2
        while newCapacity < minimum { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// Hands the buffer over, uncopied: the receiver deallocates it.
    consuming func finish() -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: base, count: count)
    }

    /// Frees the buffer (after a failed parse).
    consuming func discard() {
        base.deallocate()
    }
}

extension RawArena<UInt8> {
    /// Appends raw bytes (a scalar's text from libyaml).
    mutating func append(_ bytes: UnsafePointer<UInt8>?, count length: Int) {
        guard let bytes, length > 0 else { return }
        append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
    }

    /// The text of a range, as a `String`.
    func string(at offset: Int, count length: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: base + offset, count: length), as: UTF8.self)
    }

    /// Whether two ranges of the same length hold the same bytes.
    func equal(at first: Int, _ second: Int, count length: Int) -> Bool {
        memcmp(base + first, base + second, length) == 0
    }

    /// A copy of a range's bytes.
    func bytes(at offset: Int, count length: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: base + offset, count: length))
    }
}
