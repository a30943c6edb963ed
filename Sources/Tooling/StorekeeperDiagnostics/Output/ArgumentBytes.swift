/// The command line as the process received it, in bytes, to tell a path
/// typed with U+FFFD (`�`) from one that was not UTF-8: Swift decodes every
/// argument into a `String`, replacing each invalid byte with U+FFFD, so a
/// path made from such an argument names another file than the one typed.
public enum ArgumentBytes {
    /// The argument `text` was made from, when that argument is not valid
    /// UTF-8 (its bytes were replaced); `nil` when `text` holds no U+FFFD, or
    /// when some argument holds it exactly as typed. An option's value may be
    /// a separate argument or the end of one (`--output=PATH`, `-oPATH`), so
    /// an argument matches when its decoding ends with `text`.
    public static func repairedArgument(endingWith text: String) -> [UInt8]? {
        repairedArgument(endingWith: text, in: commandLine())
    }

    /// ``repairedArgument(endingWith:)`` over given arguments.
    static func repairedArgument(endingWith text: String, in arguments: [[UInt8]]) -> [UInt8]? {
        guard text.unicodeScalars.contains("\u{FFFD}") else { return nil }
        var repaired: [UInt8]?
        for argument in arguments {
            let decoded = String(decoding: argument, as: UTF8.self)
            guard decoded.utf8.count >= text.utf8.count, decoded.utf8.suffix(text.utf8.count).elementsEqual(text.utf8) else { continue }
            // Valid UTF-8 decodes to the same bytes: the U+FFFD was typed.
            if decoded.utf8.elementsEqual(argument) { return nil }
            repaired = repaired ?? argument
        }
        return repaired
    }

    /// `bytes` as text that shows each byte of it: printable ASCII as
    /// itself, a backslash doubled, every other byte as `\xHH`
    /// (`out\xFF.json`).
    public static func escaped(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        var text = String.UnicodeScalarView()
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"):
                text.append(contentsOf: ["\\", "\\"])
            case 0x20..<0x7F:
                text.append(Unicode.Scalar(byte))
            default:
                text.append(contentsOf: ["\\", "x", digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
            }
        }
        return String(text)
    }

    /// Every argument after the program's name, as the bytes received.
    private static func commandLine() -> [[UInt8]] {
        let count = Int(CommandLine.argc)
        let vector = CommandLine.unsafeArgv
        guard count > 1 else { return [] }
        return (1..<count).compactMap { index in
            vector[index].map { argument in
                var bytes: [UInt8] = []
                var pointer = argument
                while pointer.pointee != 0 {
                    bytes.append(UInt8(bitPattern: pointer.pointee))
                    pointer += 1
                }
                return bytes
            }
        }
    }
}
