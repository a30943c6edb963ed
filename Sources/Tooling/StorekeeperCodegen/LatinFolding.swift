/// Latin letters with accents, as the plain letters an identifier uses:
/// `é` → `e`, `Ü` → `U`, `ß` → `ss`, `Æ` → `Ae`. Covers Latin-1 (U+00C0 to
/// U+00FF) and `Œ`, `œ`; other scalars are not letters of an identifier.
enum LatinFolding {
    /// The plain letters for a scalar, or nil when it has none.
    static func plain(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x152: return "Oe"
        case 0x153: return "oe"
        case 0xC0...0xFF:
            let folded = latin1[Int(scalar.value - 0xC0)]
            return folded.isEmpty ? nil : folded
        default: return nil
        }
    }

    /// U+00C0 to U+00FF in order; empty for × and ÷, which are not letters.
    private static let latin1: [String] = [
        "A", "A", "A", "A", "A", "A", "Ae", "C", "E", "E", "E", "E", "I", "I", "I", "I",
        "D", "N", "O", "O", "O", "O", "O", "", "O", "U", "U", "U", "U", "Y", "Th", "ss",
        "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
        "d", "n", "o", "o", "o", "o", "o", "", "o", "u", "u", "u", "u", "y", "th", "y",
    ]
}
