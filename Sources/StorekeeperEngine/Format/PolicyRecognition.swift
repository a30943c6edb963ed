/// Decides once whether a file is a compiled policy or a catalog, from its
/// name and its leading bytes, without parsing it: so that a damaged policy
/// (a duplicate key, a number out of range, nesting too deep, a file over
/// the limit) is still read as a policy and its one JSON error reported,
/// instead of the whole file being read as a catalog.
///
/// A file is a compiled policy when
///
/// 1. its first member is `"format": "storekeeper-policy"` (found by a
///    scan of the leading bytes, as `PolicyEncoder` writes it first), or
/// 2. its name ends in `.json` and it begins with `{` and does not look like
///    a catalog: no `app` key and no `format` key with a number (a catalog
///    must have `app`, and its `format` is `1`). Keys are found by a tolerant
///    scan that reads strings and bare words, so a damaged file and a
///    catalog in YAML's flow style are recognised alike.
///
/// Anything else is a catalog: YAML in block or flow style, or JSON.
public enum PolicyRecognition {
    /// How much of the file the first-member scan looks at.
    static let leadingBytes = 4096

    /// Whether `bytes`, read from `path`, are a compiled policy.
    public static func isCompiledPolicy(_ bytes: [UInt8], path: String) -> Bool {
        var scanner = KeyScanner(bytes: bytes[...].prefix(leadingBytes))
        guard scanner.skipSpace(), scanner.next() == UInt8(ascii: "{") else { return false }
        if let (key, value) = scanner.firstMember(), key == "format", value == .string(PolicyFormat.name) { return true }
        return hasPolicyName(path) && !looksLikeCatalog(bytes)
    }

    /// Whether the name says JSON (`.json`, any case): for a file too large
    /// to read, the only signal there is.
    public static func hasPolicyName(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".json")
    }

    /// Whether any key is `app`, or `format` with a number.
    static func looksLikeCatalog(_ bytes: [UInt8]) -> Bool {
        var scanner = KeyScanner(bytes: bytes[...])
        while let (key, value) = scanner.nextKey() {
            if key == "app" { return true }
            if key == "format", case .number = value { return true }
        }
        return false
    }
}

/// A tolerant scan for `key: value` pairs in JSON or YAML flow text: it
/// never fails, only stops at the end.
private struct KeyScanner {
    enum Value: Equatable {
        case string(String)
        case number
        case other
    }

    let bytes: ArraySlice<UInt8>
    var index: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
        // A UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
    }

    /// Skips spaces and line breaks; whether anything is left.
    mutating func skipSpace() -> Bool {
        while index < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.endIndex
    }

    mutating func next() -> UInt8? {
        guard index < bytes.endIndex else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    /// The first member of the object just opened, when it reads as one.
    mutating func firstMember() -> (String, Value)? {
        guard skipSpace(), let key = token(), case .string(let name) = key, skipSpace(), next() == UInt8(ascii: ":"),
              skipSpace(), let value = token() else { return nil }
        return (name, value)
    }

    /// The next token followed by `:`, and the token after it.
    mutating func nextKey() -> (String, Value)? {
        while skipSpace() {
            guard let token = token() else { index += 1; continue }
            guard case .string(let name) = token else { continue }
            let afterKey = index
            if skipSpace(), bytes[index] == UInt8(ascii: ":") {
                index += 1
                let value = skipSpace() ? (self.token() ?? .other) : .other
                return (name, value)
            }
            index = afterKey
        }
        return nil
    }

    /// A quoted string, a bare word (as a string) or a number at the index;
    /// nil (nothing read) at punctuation.
    private mutating func token() -> Value? {
        guard index < bytes.endIndex else { return nil }
        let first = bytes[index]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            index += 1
            var text: [UInt8] = []
            while index < bytes.endIndex, bytes[index] != first {
                if first == UInt8(ascii: "\""), bytes[index] == UInt8(ascii: "\\") { index += 1 }
                if index < bytes.endIndex { text.append(bytes[index]) }
                index += 1
            }
            index += 1
            return .string(String(decoding: text, as: UTF8.self))
        }
        if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || first == UInt8(ascii: "-") && index + 1 < bytes.endIndex
            && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]) {
            while index < bytes.endIndex, !Self.ends(bytes[index]) { index += 1 }
            return .number
        }
        guard !Self.ends(first) else { return nil }
        let start = index
        while index < bytes.endIndex, !Self.ends(bytes[index]) { index += 1 }
        return .string(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    /// Where a bare word or number ends.
    private static func ends(_ byte: UInt8) -> Bool {
        [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "{"), UInt8(ascii: "}"),
         UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: "'")].contains(byte)
    }
}
