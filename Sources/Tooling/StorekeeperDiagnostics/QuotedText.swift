/// How a message quotes what the author wrote: whole when it is short, cut
/// to its first characters and "…" when it is long, so that a key or an id a
/// million characters long does not make a message a million characters
/// long. The configuration, the suppression comments and every located-YAML
/// decoder quote this way.
package enum QuotedText {
    /// Texts longer than this many characters are quoted cut, and get no
    /// suggestion: no key or rule id is this long, and finding the nearest
    /// one would cost time in proportion to the length.
    package static let longest = 100
    /// How many characters of an over-long text a message quotes.
    package static let keptPrefix = 40

    /// Whether `text` has more than `limit` Unicode scalars (looking at no more than `limit + 1`).
    package static func isLonger(_ text: String, than limit: Int = longest) -> Bool {
        !text.unicodeScalars.dropFirst(limit).isEmpty
    }

    /// `text` as a message quotes it: whole up to `limit` characters, else its
    /// first `keep` characters and "…". Counted in Unicode scalars, so that no
    /// character (however many combining marks it has) makes the quote long.
    package static func quoted(_ text: String, limit: Int = longest, keep: Int = keptPrefix) -> String {
        guard isLonger(text, than: limit) else { return text }
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: text.unicodeScalars.prefix(keep))
        return String(prefix) + "…"
    }
}
