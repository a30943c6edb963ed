import StorekeeperCore

/// Decides once whether a file is a compiled policy or a catalog, from its
/// bytes, without parsing it: so that a damaged policy (a duplicate key, a
/// number out of range, nesting too deep, a file over the limit) is still
/// read as a policy and its one JSON error reported, instead of the whole
/// file being read as a catalog.
///
/// A file is a compiled policy when, and only when, it is a JSON object
/// (after a byte order mark and white space) with a top-level member
/// `"format": "storekeeper-policy"`, anywhere among its members. The scan
/// that finds it is tolerant: it follows strings and nesting, and damage
/// elsewhere (a duplicate key, a bad number, a missing comma) does not hide
/// the member. A file too large to read whole is scanned in its leading
/// bytes, where `PolicyEncoder` writes `format` first.
///
/// The name plays no part: `validate`, `explain`, `compile` and
/// `PolicyLoader` give the same answer for the same bytes. Anything else is
/// a catalog (YAML in block or flow style, or JSON, whose `format` is `1`),
/// and a catalog that says `format: storekeeper-policy` is told by the
/// catalog decoder that it is a compiled policy.
public enum PolicyRecognition {
    /// How much of a file too large to read whole the scan looks at.
    public static let leadingBytes = 4096

    /// Whether `bytes` are a compiled policy: a JSON object with a
    /// top-level `"format": "storekeeper-policy"` member.
    public static func isCompiledPolicy(_ bytes: [UInt8]) -> Bool {
        isCompiledPolicy(bytes[...])
    }

    /// Whether `bytes` are a compiled policy (see ``isCompiledPolicy(_:)-([UInt8])``).
    public static func isCompiledPolicy(_ bytes: ArraySlice<UInt8>) -> Bool {
        var scanner = TopLevelScanner(bytes: bytes)
        return scanner.findsMember(key: Self.formatKey, value: Self.formatValue)
    }

    private static let formatKey = Array("format".utf8)
    private static let formatValue = Array(PolicyFormat.name.utf8)
}

/// A tolerant scan of a JSON object's top-level members: it follows strings
/// (with their escapes) and nesting, never fails, and only stops at the end
/// of the bytes or of the top-level object.
private struct TopLevelScanner {
    let bytes: ArraySlice<UInt8>
    var index: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
        // A UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let colon = UInt8(ascii: ":")

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func skipSpace() {
        while index < bytes.endIndex, Self.isSpace(bytes[index]) { index += 1 }
    }

    /// The raw bytes of the string starting at the index (its opening quote),
    /// escapes left as written; the index ends after the closing quote.
    private mutating func string() -> ArraySlice<UInt8> {
        index += 1
        let start = index
        while index < bytes.endIndex, bytes[index] != Self.quote {
            index += bytes[index] == Self.backslash ? 2 : 1
        }
        let end = min(index, bytes.endIndex)
        index = min(index + 1, bytes.endIndex)
        return bytes[start..<end]
    }

    /// Whether the top-level object has a member `"key": "value"`.
    mutating func findsMember(key: [UInt8], value: [UInt8]) -> Bool {
        skipSpace()
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "{") else { return false }
        index += 1
        var depth = 1
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case Self.quote:
                let text = string()
                guard depth == 1, text.elementsEqual(key) else { continue }
                skipSpace()
                guard index < bytes.endIndex, bytes[index] == Self.colon else { continue }
                index += 1
                skipSpace()
                guard index < bytes.endIndex, bytes[index] == Self.quote else { continue }
                if string().elementsEqual(value) { return true }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                index += 1
                if depth == 0 { return false }
            default:
                index += 1
            }
        }
        return false
    }
}
