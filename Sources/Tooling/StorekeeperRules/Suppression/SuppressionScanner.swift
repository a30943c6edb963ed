import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperPlatform
import StorekeeperYAML

/// Finds `# storekeeper:` comments in a file's bytes.
///
/// The scan jumps from `#` to `#` with `memchr` and looks no further than
/// the bytes around each: a 4 MB catalog costs one pass of `memchr` plus a
/// line count up to the last directive, and no `String` per line. Only a
/// comment on a line of its own (nothing but spaces or tabs before `#`) is
/// read, so a `#` inside a quoted value after a key is never taken for one.
///
/// Known limitation: the scanner does not parse YAML, so a line of a block
/// scalar (`|` or `>`) that starts with `# storekeeper:` is read as a comment.
public enum SuppressionScanner {
    /// The suppressions in a file's text, and the problems with malformed ones.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents (UTF-8, or UTF-16 with a byte order mark).
    ///   - file: The file's path, exactly as the loader names it in diagnostics.
    ///   - policyRules: The ids that may be suppressed.
    public static func scan(_ bytes: [UInt8], file: String, policyRules: Set<String>) -> (suppressions: [Suppression], diagnostics: [Diagnostic]) {
        let text = YAMLParser.utf8Text(of: bytes)
        let lines = text.withUnsafeBufferPointer { commentLines(in: $0) }
        guard !lines.isEmpty else { return ([], []) }

        var parser = SuppressionDirectiveParser(file: file, policyRules: policyRules)
        var parsed: [(line: Int, rules: [Suppression.Rule], reason: String?)] = []
        for line in lines {
            switch parser.parse(line) {
            case .notADirective: continue
            case .invalid: parsed.append((line.number, [], nil))
            case .valid(let rules, let reason): parsed.append((line.number, rules, reason))
            }
        }
        // A stack of directive lines applies to the first line below it that is not one.
        let directiveLines = Set(parsed.map(\.line))
        var suppressions: [Suppression] = []
        for entry in parsed {
            guard let reason = entry.reason else { continue }
            var target = entry.line + 1
            while directiveLines.contains(target) { target += 1 }
            suppressions.append(Suppression(file: file, commentLine: entry.line, targetLine: target, rules: entry.rules, reason: reason))
        }
        return (suppressions, parser.diagnostics)
    }

    /// The lines that hold only a comment starting with `storekeeper:` (after optional spaces).
    static func commentLines(in buffer: UnsafeBufferPointer<UInt8>) -> [CommentLine] {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return [] }
        let count = buffer.count
        let bom = count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF ? 3 : 0
        var found: [CommentLine] = []
        // Lines are counted lazily, only as far as the last comment found.
        var counted = 0, line = 1, lineStart = 0
        var offset = 0
        while offset < count, let hit = memchr(base + offset, Int32(UInt8(ascii: "#")), count - offset) {
            let hash = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - base
            offset = hash + 1
            guard startsLine(hash, in: buffer, bom: bom), hasKeyword(after: hash, in: buffer) else { continue }
            // Count line breaks up to here, as libyaml reads them (see `lineBreak(at:in:)`).
            while counted < hash {
                let width = lineBreak(at: counted, in: buffer)
                if width > 0 {
                    line += 1
                    counted += width
                    lineStart = counted
                } else {
                    counted += 1
                }
            }
            var end = hash
            while end < count, lineBreak(at: end, in: buffer) == 0 { end += 1 }
            let skip = line == 1 ? bom : 0
            found.append(CommentLine(number: line, bytes: Array(buffer[(lineStart + skip)..<end]), hash: hash - lineStart - skip))
            offset = end
        }
        return found
    }

    /// The length in bytes of the line break at `index`, or 0 when none starts
    /// there. libyaml's breaks: `\n`, `\r\n`, a lone `\r`, and in UTF-8 NEL
    /// (U+0085, `C2 85`), LINE SEPARATOR (U+2028, `E2 80 A8`) and PARAGRAPH
    /// SEPARATOR (U+2029, `E2 80 A9`), so that line numbers agree with the
    /// diagnostics' wherever these appear (in a quoted value, say). UTF-16
    /// input is converted to UTF-8 before the scan, so its breaks are these too.
    static func lineBreak(at index: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Int {
        switch buffer[index] {
        case 0x0A:
            return 1
        case 0x0D:
            return index + 1 < buffer.count && buffer[index + 1] == 0x0A ? 2 : 1
        case 0xC2:
            return index + 1 < buffer.count && buffer[index + 1] == 0x85 ? 2 : 0
        case 0xE2:
            return index + 2 < buffer.count && buffer[index + 1] == 0x80
                && (buffer[index + 2] == 0xA8 || buffer[index + 2] == 0xA9) ? 3 : 0
        default:
            return 0
        }
    }

    /// Whether only spaces and tabs come before `#` on its line (a byte order mark aside).
    private static func startsLine(_ hash: Int, in buffer: UnsafeBufferPointer<UInt8>, bom: Int) -> Bool {
        var index = hash - 1
        while index >= bom, buffer[index] == 0x20 || buffer[index] == 0x09 { index -= 1 }
        if index < bom { return true }
        switch buffer[index] {
        case 0x0A, 0x0D:
            return true
        case 0x85:  // NEL
            return index >= 1 && buffer[index - 1] == 0xC2
        case 0xA8, 0xA9:  // LINE and PARAGRAPH SEPARATOR
            return index >= 2 && buffer[index - 1] == 0x80 && buffer[index - 2] == 0xE2
        default:
            return false
        }
    }

    /// The bytes every directive starts with.
    static let keyword = Array("storekeeper:".utf8)

    /// Whether `storekeeper:` follows the `#`, after optional spaces.
    private static func hasKeyword(after hash: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = hash + 1
        while index < buffer.count, buffer[index] == 0x20 || buffer[index] == 0x09 { index += 1 }
        guard buffer.count - index >= keyword.count else { return false }
        for (offset, byte) in keyword.enumerated() where buffer[index + offset] != byte { return false }
        return true
    }
}

/// A line holding only a `# storekeeper:` comment: its text (without the
/// line break) and number.
struct CommentLine: Sendable, Hashable {
    /// The 1-based line number.
    let number: Int
    /// The line's bytes, from its first column.
    let bytes: [UInt8]
    /// The offset of `#` in `bytes`.
    let hash: Int

    /// The 1-based column, in Unicode scalars, of a byte offset in `bytes`.
    func column(of offset: Int) -> Int {
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte & 0xC0 != 0x80 { column += 1 }
        return column
    }
}
