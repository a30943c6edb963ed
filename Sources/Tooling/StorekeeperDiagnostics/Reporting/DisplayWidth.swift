/// How many columns of a terminal (or of a monospaced editor) a character
/// takes: what the text reporter counts to put its marker under the right
/// characters, where a `file:line:column` counts Unicode scalars instead.
///
/// - East Asian Wide and Fullwidth characters (CJK ideographs, kana, Hangul
///   syllables, fullwidth forms, emoji shown as pictures) take 2 columns.
/// - Combining marks (general categories Mn and Me, such as U+0301 or the
///   variation selector U+FE0F), format characters (Cf, such as the zero
///   width joiner; the soft hyphen excepted) and the Hangul vowels and final
///   consonants that join a leading consonant take none.
/// - Everything else takes 1.
///
/// This is what `wcwidth(3)` and terminals agree on for single characters.
/// Sequences that a terminal draws as one picture (an emoji joined with
/// U+200D) are counted character by character, so a marker after one may
/// still drift.
enum DisplayWidth {
    /// The columns `scalar` takes: 0, 1 or 2.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        // Below U+0300 there is no combining mark and nothing wide.
        if value < 0x300 { return 1 }
        if isZeroWidth(scalar) { return 0 }
        return isWide(value) ? 2 : 1
    }

    /// The columns all of `scalars` take together.
    static func of(_ scalars: some Sequence<Unicode.Scalar>) -> Int {
        scalars.reduce(0) { $0 + of($1) }
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1160...0x11FF, 0xD7B0...0xD7FF:
            // Hangul jamo vowels and final consonants, drawn inside the syllable their leading consonant starts.
            return true
        case 0xAD:
            // The soft hyphen is shown as a hyphen where it is shown at all.
            return false
        default:
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: return true
            default: return false
            }
        }
    }

    private static func isWide(_ value: UInt32) -> Bool {
        // Nothing wide comes before the Hangul leading consonants.
        guard value >= 0x1100 else { return false }
        var low = 0, high = wide.count
        while low < high {
            let middle = (low + high) / 2
            if wide[middle].upperBound < value { low = middle + 1 } else { high = middle }
        }
        return low < wide.count && wide[low].contains(value)
    }

    /// The code points whose East Asian Width is Wide (W) or Fullwidth (F),
    /// from Unicode's EastAsianWidth.txt, in order; neighbouring ranges are
    /// joined over unassigned code points, which are drawn as placeholders
    /// if at all.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E,
        0x3041...0x3247, 0x3250...0x4DBF, 0x4E00...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x1B2FB,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F320,
        0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3,
        0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC,
        0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596,
        0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2,
        0x1F6D5...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7F0, 0x1F90C...0x1F93A,
        0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD
    ]
}
