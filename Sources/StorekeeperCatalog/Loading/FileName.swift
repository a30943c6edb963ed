/// File names as bytes, for messages about names that are not valid UTF-8.
public enum FileName {
    /// The name with every byte that is not part of valid, printable UTF-8
    /// written as `\xNN` (and a backslash as `\\`), quoted: `'caf\xe9.yaml'`.
    public static func escaped(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var text = "'"
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                text += "\\\\"
                index += 1
                continue
            }
            let length = byte < 0x80 ? 1 : byte >= 0xF5 ? 0 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 ? 2 : 0
            if length > 0, byte >= 0x20, byte != 0x7F, index + length <= bytes.count {
                let sequence = bytes[index..<index + length]
                let decoded = String(decoding: sequence, as: UTF8.self)
                if decoded.utf8.elementsEqual(sequence) {
                    text += decoded
                    index += length
                    continue
                }
            }
            let digits = String(byte, radix: 16)
            text += "\\x" + (digits.count == 1 ? "0" + digits : digits)
            index += 1
        }
        return text + "'"
    }
}
