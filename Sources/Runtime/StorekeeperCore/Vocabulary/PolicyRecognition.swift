
/// Decides once whether a file is a compiled policy or a catalog, from its
/// bytes, without parsing it: so that a damaged policy (cut short, a doubled
/// comma, a duplicate key, a misspelt `format`, a number out of range,
/// nesting too deep, a file over the limit) is still read as a policy and
/// the policy reader's one error reported, instead of the whole file being
/// read as a catalog.
///
/// A file is a compiled policy when it is a JSON object (after a byte order
/// mark and white space) whose top-level members show it, anywhere among
/// them:
/// - a member `"format"` whose value is `"storekeeper-policy"`, the same
///   with a few typing mistakes (`"storekeeper-polcy"`, any case), or the
///   start of it where the file ends (a policy cut short); or
/// - no `"format"` member at all, and a member only a compiled policy has
///   at its top (`"situations"` or `"plans"`; a catalog has neither).
///
/// The scan is tolerant: it follows strings and nesting, and damage
/// elsewhere (a duplicate key, a bad number, a missing or doubled comma, an
/// end too early) does not hide the members. A file too large to read whole
/// is scanned in its leading bytes, where `PolicyEncoder` writes `format`
/// first.
///
/// The name plays no part: `validate`, `explain`, `compile` and
/// `PolicyLoader` give the same answer for the same bytes. Anything else is
/// a catalog (YAML in block or flow style, or JSON, whose `format` is `1`),
/// and a catalog that says `format: storekeeper-policy` is told by the
/// catalog decoder that it is a compiled policy.
public enum PolicyRecognition {
    /// How much of a file too large to read whole the scan looks at.
    package static let leadingBytes = 4096

    /// Whether `bytes` are a compiled policy, damaged or not (see the rule above).
    package static func isCompiledPolicy(_ bytes: [UInt8]) -> Bool {
        isCompiledPolicy(bytes[...])
    }

    /// Whether `bytes` are a compiled policy (see ``isCompiledPolicy(_:)-([UInt8])``).
    package static func isCompiledPolicy(_ bytes: ArraySlice<UInt8>) -> Bool {
        var scanner = TopLevelScanner(bytes: bytes)
        guard let members = scanner.topLevelMembers() else { return false }
        return members.showCompiledPolicy
    }

    /// Members a compiled policy has at its top and a catalog never has.
    fileprivate static let policyOnlyKeys = [Array("situations".utf8), Array("plans".utf8)]
    fileprivate static let formatKey = Array("format".utf8)
}

/// What the scan saw among a JSON object's top-level members.
private struct TopLevelMembers {
    /// A `format` member was there, whatever its value.
    var hasFormat = false
    /// A `format` member's value names a compiled policy.
    var formatNamesPolicy = false
    /// A member only a compiled policy has at its top.
    var hasPolicyOnlyKey = false

    var showCompiledPolicy: Bool { formatNamesPolicy || (!hasFormat && hasPolicyOnlyKey) }

    /// Notes a `format` member's string value; `complete` is false when the
    /// bytes end inside it (a file cut short: its start must match).
    mutating func noteFormat(_ raw: ArraySlice<UInt8>, complete: Bool) {
        hasFormat = true
        let text = String(decoding: raw, as: UTF8.self)
        if complete {
            if PolicyFormat.isNamed(by: text) { formatNamesPolicy = true }
        } else if !text.isEmpty, PolicyFormat.name.hasPrefix(text) {
            formatNamesPolicy = true
        }
    }
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
    /// escapes left as written, and whether it was closed before the bytes
    /// ended; the index ends after the closing quote.
    private mutating func string() -> (text: ArraySlice<UInt8>, closed: Bool) {
        index += 1
        let start = index
        while index < bytes.endIndex, bytes[index] != Self.quote {
            index += bytes[index] == Self.backslash ? 2 : 1
        }
        let closed = index < bytes.endIndex
        let end = min(index, bytes.endIndex)
        index = min(index + 1, bytes.endIndex)
        return (bytes[start..<end], closed)
    }

    /// What the top-level object's members show, or nil when the bytes are
    /// not a JSON object.
    mutating func topLevelMembers() -> TopLevelMembers? {
        skipSpace()
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        var members = TopLevelMembers()
        var depth = 1
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case Self.quote:
                let key = string().text
                // A string at the top followed by a colon is a member's key.
                guard depth == 1 else { continue }
                skipSpace()
                guard index < bytes.endIndex, bytes[index] == Self.colon else { continue }
                index += 1
                if PolicyRecognition.policyOnlyKeys.contains(where: { key.elementsEqual($0) }) { members.hasPolicyOnlyKey = true }
                guard key.elementsEqual(PolicyRecognition.formatKey) else { continue }
                skipSpace()
                guard index < bytes.endIndex, bytes[index] == Self.quote else {
                    // A number (a catalog's `format: 1`), or anything else.
                    members.hasFormat = true
                    continue
                }
                let value = string()
                members.noteFormat(value.text, complete: value.closed)
                if members.formatNamesPolicy { return members }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                index += 1
                if depth == 0 { return members }
            default:
                index += 1
            }
        }
        return members
    }
}
