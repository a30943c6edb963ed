@testable import StorekeeperDiagnostics
import Testing

@Suite("Display width")
struct DisplayWidthTests {
    @Test("takes one column for Latin, Greek and Cyrillic letters, symbols and the ellipsis")
    func narrow() {
        for scalar: Unicode.Scalar in ["a", "~", "\u{E9}", "\u{3A9}", "\u{416}", "\u{2026}", "\u{2400}", "\u{FFFD}", "\u{AD}"] {
            #expect(DisplayWidth.of(scalar) == 1, "U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
    }

    @Test("takes two columns for East Asian wide and fullwidth characters and emoji")
    func wide() {
        // Kanji, hiragana, katakana, Hangul (a syllable and a leading consonant),
        // a fullwidth A, an ideographic space, a CJK extension B ideograph, emoji.
        for scalar: Unicode.Scalar in ["月", "あ", "プ", "한", "\u{1100}", "\u{FF21}", "\u{3000}", "\u{20000}", "\u{1F600}", "\u{2615}"] {
            #expect(DisplayWidth.of(scalar) == 2, "U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
    }

    @Test("takes no column for combining marks, joiners and Hangul vowels that join a consonant")
    func zero() {
        // Acute accent, combining enclosing circle, variation selector 16, zero width joiner and space, a jamo vowel.
        for scalar: Unicode.Scalar in ["\u{301}", "\u{20DD}", "\u{FE0F}", "\u{200D}", "\u{200B}", "\u{1161}"] {
            #expect(DisplayWidth.of(scalar) == 0, "U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
    }

    @Test("adds up the columns of a text")
    func sequence() {
        #expect(DisplayWidth.of("title: 月額プラン".unicodeScalars) == 17)
        #expect(DisplayWidth.of("Cafe\u{301}".unicodeScalars) == 4)
        // A decomposed Hangul syllable: leading consonant, vowel, final consonant.
        #expect(DisplayWidth.of("\u{1112}\u{1161}\u{11AB}".unicodeScalars) == 2)
    }
}
