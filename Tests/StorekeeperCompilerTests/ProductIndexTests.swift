@testable import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperRuntime
import Testing

/// `ProductIndex`: every id found at its position, everything else missed,
/// whatever the input, including when every hash collides.
@Suite struct ProductIndexTests {
    static func benchmarkID(_ number: Int) -> String {
        let digits = String(number)
        return "com.example.benchmark.p" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }

    static let ids = (0 ..< 10_000).map(benchmarkID)
    static let index = ProductIndex(ids)

    /// A copy of `id` in new storage, so that no lookup can succeed on shared storage alone.
    static func copy(_ id: String) -> String {
        String(decoding: Array(id.utf8), as: UTF8.self)
    }

    @Test func findsEveryIDAtItsPosition() {
        #expect(Self.index.count == Self.ids.count)
        for (position, id) in Self.ids.enumerated() {
            #expect(Self.index.index(of: Self.copy(id)) == Int32(position))
        }
    }

    @Test func missesIDsThatAreNotThere() {
        let misses = [
            "",
            "c",
            "com.example.benchmark.p",
            "com.example.benchmark.p0123",
            "com.example.benchmark.p012345",
            "com.example.benchmark.p10000",
            "com.example.benchmark.q01234",
            "Com.example.benchmark.p01234",
            "com.example.benchmark.p01234 ",
            " com.example.benchmark.p01234",
            "xcom.example.benchmark.p01234",
            "com.example.benchmark.p01234\u{0}",
            "com.example.benchmark.p0123\u{E9}",
            "com.example.benchmark.p0123é",
            "com.example.benchmark.p0123\u{1F600}",
            "продукт",
            String(repeating: "a", count: 1_000),
            String(repeating: "com.example.benchmark.p01234", count: 40),
        ]
        for id in misses {
            #expect(Self.index.index(of: id) == nil, "found \(id.debugDescription)")
        }
    }

    @Test func missesIDsOfTheSameLengthThatDifferInAnyOneByte() {
        let id = Array(Self.ids[1234].utf8)
        for offset in id.indices {
            // 0x40 takes a digit out of the digits, and every other byte of these ids somewhere no id has it.
            var changed = id
            changed[offset] ^= 0x40
            #expect(Self.index.index(of: String(decoding: changed, as: UTF8.self)) == nil, "offset \(offset)")
            // A bit flip within the digits is another id: that one, not this one.
            changed = id
            changed[offset] ^= 0x01
            let other = String(decoding: changed, as: UTF8.self)
            #expect(Self.index.index(of: other) == Self.ids.firstIndex(of: other).map(Int32.init), "offset \(offset)")
        }
    }

    @Test func anEmptyIndexFindsNothing() {
        let index = ProductIndex([])
        #expect(index.count == 0)
        #expect(index.index(of: "") == nil)
        #expect(index.index(of: "com.example.benchmark.p00000") == nil)
    }

    @Test func findsTheEmptyStringAndNonASCIIAndLongIDs() {
        let ids = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "abcdefghijklmnop",
            "abcdefghijklmnopq",
            "é",
            "com.example.prodüct",
            "商品.一",
            "\u{1F680}.rocket",
            String(repeating: "x", count: 100),
            String(repeating: "y", count: 1_000),
            String(repeating: "é", count: 5_000),
        ]
        let index = ProductIndex(ids)
        #expect(index.count == ids.count)
        for (position, id) in ids.enumerated() {
            #expect(index.index(of: Self.copy(id)) == Int32(position), "\(id.prefix(20).debugDescription)")
        }
        #expect(index.index(of: String(repeating: "x", count: 99)) == nil)
        #expect(index.index(of: String(repeating: "x", count: 101)) == nil)
        #expect(index.index(of: "abcdefghijklmnopqr") == nil)
        #expect(index.index(of: "e\u{301}") == nil, "a different UTF-8 spelling is a different id")
    }

    @Test func duplicatesKeepTheFirst() {
        let ids = ["a", "b", "a", "c", "b", "a", "", ""]
        let index = ProductIndex(ids)
        #expect(index.count == 4)
        #expect(index.index(of: "a") == 0)
        #expect(index.index(of: "b") == 1)
        #expect(index.index(of: "c") == 3)
        #expect(index.index(of: "") == 6)
        #expect(index.index(of: "d") == nil)
    }

    /// Every id on the same hash: one cluster the length of the ids, so every
    /// lookup probes past every id before it and tells them apart by length and bytes alone.
    @Test func everyHashCollidingStillFindsEveryIDAndMissesTheRest() {
        var ids = (0 ..< 300).map(Self.benchmarkID)
        ids += ["com.example.benchmark.p0000", "com.example.benchmark.p000000", "", "z", "com.example.benchmark.p00000"]
        let index = ProductIndex(ids, hashMask: 0)
        #expect(index.count == ids.count - 1)
        for (position, id) in ids.enumerated().dropLast() {
            #expect(index.index(of: Self.copy(id)) == Int32(position))
        }
        #expect(index.index(of: "com.example.benchmark.p00000") == 0, "the duplicate keeps the first")
        for id in ["com.example.benchmark.p00300", "com.example.benchmark.p0000x", "y", "com.example.benchmark.p00", "com.example.benchmark.p0000000"] {
            #expect(index.index(of: id) == nil, "found \(id)")
        }
    }

    @Test func idsThatDifferOnlyInTheLastByte() {
        for stemLength in [0, 3, 7, 8, 15, 16, 40, 99] {
            let stem = String(repeating: "s", count: stemLength)
            let ids = (UInt8(0x21) ... 0x7e).map { stem + String(decoding: [$0], as: UTF8.self) }
            for hashMask: UInt64 in [~0, 0] {
                let index = ProductIndex(ids, hashMask: hashMask)
                #expect(index.count == ids.count)
                for (position, id) in ids.enumerated() {
                    #expect(index.index(of: Self.copy(id)) == Int32(position), "stem \(stemLength)")
                }
                #expect(index.index(of: stem + "\u{7f}") == nil)
                #expect(index.index(of: stem + " ") == nil)
                #expect(index.index(of: stem) == nil)
            }
        }
    }

    /// Short ids hash through overlapping 4-byte reads: every length up to 17,
    /// each id differing from the next in one byte, all kept apart.
    @Test func shortIDsOfEveryLengthAreKeptApart() {
        var ids: [String] = []
        for length in 0 ... 17 {
            for byte in UInt8(ascii: "a") ... UInt8(ascii: "z") {
                for offset in 0 ..< max(length, 1) {
                    var bytes = [UInt8](repeating: UInt8(ascii: "m"), count: length)
                    if length > 0 { bytes[offset] = byte }
                    ids.append(String(decoding: bytes, as: UTF8.self))
                }
            }
        }
        var firsts: [String: Int32] = [:]
        for (position, id) in ids.enumerated() where firsts[id] == nil {
            firsts[id] = Int32(position)
        }
        let index = ProductIndex(ids)
        #expect(index.count == firsts.count)
        for (id, position) in firsts {
            #expect(index.index(of: Self.copy(id)) == position)
        }
        let hashes = Set(firsts.keys.map { id in Array(id.utf8).withUnsafeBytes { ProductIndex.hash($0) } })
        #expect(hashes.count == firsts.count, "distinct short ids, distinct 64-bit hashes")
    }

    /// Linux has no lazily bridged strings: every `String` is stored
    /// contiguously (Substrings and `String(Substring)` included), so the
    /// copying path is driven directly.
    @Test func theCopyingPathFindsWhatTheContiguousOneDoes() {
        let substring = "xx" + Self.ids[42] + "yy"
        let inner = substring.dropFirst(2).dropLast(2)
        #expect(Self.index.index(of: String(inner)) == 42)
        for position in [0, 1, 42, 9_999] {
            #expect(Self.index.indexCopyingUTF8(of: Self.ids[position]) == Int32(position))
        }
        #expect(Self.index.indexCopyingUTF8(of: "") == nil)
        #expect(Self.index.indexCopyingUTF8(of: "com.example.benchmark.p10000") == nil)
    }
}
