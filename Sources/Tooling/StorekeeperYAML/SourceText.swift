/// Positions in raw source bytes, for the error paths that have only a byte
/// offset (libyaml's reader errors) or need the text of a line. Line breaks
/// are `\n`, `\r\n` and a lone `\r`, as YAML reads them; a UTF-8 byte order
/// mark takes no column.
enum SourceText {
    /// The length of a leading UTF-8 byte order mark (0 or 3).
    static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// The 1-based line and column (in Unicode scalars) of a byte offset.
    static func position(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        let end = min(offset, bytes.count)
        var index = byteOrderMarkLength(bytes)
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && (index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "\n"))) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80, byte != UInt8(ascii: "\r") {
                // Count scalar starts only, so a multi-byte character is one column.
                column += 1
            }
            index += 1
        }
        return (line, column)
    }

    /// The number of lines, counting the empty one after a final line break.
    static func lineCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        position(ofByte: bytes.count, in: bytes).line
    }

    /// The Unicode scalar at a 1-based line and column, if there is one.
    static func scalar(atLine line: Int, column: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard let text = self.line(line, in: bytes) else { return nil }
        let scalars = text.unicodeScalars
        guard column >= 1, column <= scalars.count else { return nil }
        return scalars[scalars.index(scalars.startIndex, offsetBy: column - 1)]
    }

    /// The text of a 1-based line, without its line break.
    static func line(_ number: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var current = 1
        var start = byteOrderMarkLength(bytes)
        var index = start
        while index < bytes.count, current < number {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && (index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "\n"))) {
                current += 1
                start = index + 1
            }
            index += 1
        }
        guard current == number else { return nil }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
