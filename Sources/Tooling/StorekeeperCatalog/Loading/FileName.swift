/// File names as bytes: directory listings come as bytes, and a path here is
/// a `String`.
public enum FileName {
    /// A directory entry's name as text, for a listing of `folder`.
    ///
    /// A name that is not valid UTF-8 cannot be held in a `String` path
    /// (decoding would replace its bytes with U+FFFD, naming another file,
    /// so a catalog there would be passed over without a word): it makes
    /// the folder unreadable, naming the entry with its bytes escaped
    /// (`\xff`). Hidden names (starting with `.`) are decoded as they are:
    /// no search reads them.
    public static func decoded(_ bytes: some Collection<UInt8>, in folder: String) throws(SourceReadError) -> String {
        let name = String(decoding: bytes, as: UTF8.self)
        if !name.utf8.elementsEqual(bytes), bytes.first != UInt8(ascii: ".") {
            throw .unreadable(folder, reason: "the name \(escaped(bytes)) in it is not valid UTF-8, so no report could name that file; rename it")
        }
        return name
    }

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
