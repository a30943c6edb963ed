/// Reads ASN.1 in DER or BER (definite and indefinite lengths): the app
/// receipt's encoding. Bounded: an element never reaches past its parent,
/// and nesting deeper than ``maximumDepth`` is refused, so hostile bytes
/// cannot make it read out of bounds or recurse without end.
struct ASN1Reader {
    static let signedDataOID: ArraySlice<UInt8> = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    static let dataOID: ArraySlice<UInt8> = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    static let maximumDepth = 32

    /// One element: its tag, where its content lies, and where the next begins.
    struct Element {
        var tag: UInt8
        var start: Int
        var content: Range<Int>
        var end: Int
        var isConstructed: Bool { tag & 0x20 != 0 }
    }

    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func content(of element: Element) -> ArraySlice<UInt8> { bytes[element.content] }

    /// The element at `offset`, which must have `tag` (any tag when nil).
    func element(at offset: Int, expecting tag: UInt8?, what: String) throws(AppReceiptError) -> Element {
        let element = try element(at: offset, limit: bytes.count, depth: 0)
        if let tag, element.tag != tag {
            throw AppReceiptError(offset: offset, reason: "expected \(what) (tag 0x\(String(tag, radix: 16))), found tag 0x\(String(element.tag, radix: 16))")
        }
        return element
    }

    /// The one child of a constructed element (an `[0] EXPLICIT` wrapper).
    func only(in parent: Element, expecting tag: UInt8?, what: String) throws(AppReceiptError) -> Element {
        let children = try children(of: parent)
        guard let child = children.first else { throw AppReceiptError(offset: parent.start, reason: "\(what) is missing") }
        if let tag, child.tag != tag {
            throw AppReceiptError(offset: child.start, reason: "expected \(what) (tag 0x\(String(tag, radix: 16))), found tag 0x\(String(child.tag, radix: 16))")
        }
        return child
    }

    /// The elements inside a constructed one.
    func children(of parent: Element) throws(AppReceiptError) -> [Element] {
        guard parent.isConstructed else { throw AppReceiptError(offset: parent.start, reason: "a primitive element where a constructed one was expected") }
        var found: [Element] = []
        var offset = parent.content.lowerBound
        while offset < parent.content.upperBound {
            let child = try element(at: offset, limit: parent.content.upperBound, depth: 1)
            found.append(child)
            offset = child.end
        }
        return found
    }

    /// An OCTET STRING's bytes, joined from its pieces when constructed (BER).
    func octets(of element: Element) throws(AppReceiptError) -> [UInt8] {
        switch element.tag {
        case 0x04: return Array(bytes[element.content])
        case 0x24:
            var joined: [UInt8] = []
            for piece in try children(of: element) { joined += try octets(of: piece) }
            return joined
        default: throw AppReceiptError(offset: element.start, reason: "expected an OCTET STRING, found tag 0x\(String(element.tag, radix: 16))")
        }
    }

    /// A small INTEGER.
    func integer(_ element: Element) throws(AppReceiptError) -> Int {
        let content = bytes[element.content]
        guard element.tag == 0x02, !content.isEmpty, content.count <= 7 else {
            throw AppReceiptError(offset: element.start, reason: "expected an INTEGER of at most 7 bytes")
        }
        var value = content.first.map { Int(Int8(bitPattern: $0)) } ?? 0
        for byte in content.dropFirst() { value = value << 8 | Int(byte) }
        return value
    }

    private func element(at offset: Int, limit: Int, depth: Int) throws(AppReceiptError) -> Element {
        guard depth <= Self.maximumDepth else { throw AppReceiptError(offset: offset, reason: "nested deeper than \(Self.maximumDepth) levels") }
        guard offset + 2 <= limit else { throw AppReceiptError(offset: offset, reason: "an element's header runs past its end") }
        let tag = bytes[offset]
        guard tag & 0x1F != 0x1F else { throw AppReceiptError(offset: offset, reason: "a multi-byte tag, which receipts do not use") }
        let first = bytes[offset + 1]
        var contentStart = offset + 2
        if first == 0x80 {
            // Indefinite length (BER): children up to the end-of-contents marker 00 00.
            guard tag & 0x20 != 0 else { throw AppReceiptError(offset: offset, reason: "an indefinite length on a primitive element") }
            var cursor = contentStart
            while true {
                guard cursor + 2 <= limit else { throw AppReceiptError(offset: offset, reason: "an indefinite length with no end-of-contents marker") }
                if bytes[cursor] == 0, bytes[cursor + 1] == 0 { break }
                cursor = try element(at: cursor, limit: limit, depth: depth + 1).end
            }
            return Element(tag: tag, start: offset, content: contentStart..<cursor, end: cursor + 2)
        }
        var length = Int(first)
        if first & 0x80 != 0 {
            let count = Int(first & 0x7F)
            guard count <= 4, contentStart + count <= limit else { throw AppReceiptError(offset: offset, reason: "a length of \(count) bytes, or one running past its end") }
            length = 0
            for byte in bytes[contentStart..<contentStart + count] { length = length << 8 | Int(byte) }
            contentStart += count
        }
        guard length <= limit - contentStart else {
            throw AppReceiptError(offset: offset, reason: "an element of \(length) bytes runs past its end (\(limit - contentStart) left)")
        }
        let element = Element(tag: tag, start: offset, content: contentStart..<contentStart + length, end: contentStart + length)
        if element.isConstructed, depth < Self.maximumDepth {
            // Check the children now, so that a later read of them cannot fail out of bounds.
            var cursor = element.content.lowerBound
            while cursor < element.content.upperBound { cursor = try self.element(at: cursor, limit: element.content.upperBound, depth: depth + 1).end }
        }
        return element
    }
}
