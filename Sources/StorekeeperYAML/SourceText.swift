/// Positions in raw source bytes, for the error paths that have only a byte
/// offset (libyaml's reader errors) or need the text of a line.
enum SourceText {
    /// The 1-based line and column (in Unicode scalars) of a byte offset.
    static func position(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        let end = min(offset, bytes.count)
        var index = 0
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Count scalar starts only, so a multi-byte character is one column.
                column += 1
            }
            index += 1
        }
        return (line, column)
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
        var start = 0
        var index = 0
        while index < bytes.count, current < number {
            if bytes[index] == UInt8(ascii: "\n") {
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
