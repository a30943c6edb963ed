/// Swift identifiers made from catalog text: reference names, feature,
/// balance and group names, catalog names.
///
/// The rules, documented in docs/codegen.md:
/// - The text is cut into words: runs of ASCII letters and digits. Latin
///   letters with accents count as their plain letters (`é` as `e`, `ß` as
///   `ss`, see ``LatinFolding``); apostrophes (`'` and `’`) are dropped, so
///   "Writer's Toolkit" is `writersToolkit`; every other character separates
///   words.
/// - Words that start with a digit and open the name move to its end, so
///   that the identifier starts with a letter: "100 Coins" is `coins100`.
/// - lowerCamelCase joins the words with the first one lowered
///   (`VIP Pass` is `vipPass`, `URLPack` is `urlPack`) and each later one
///   capitalised; UpperCamelCase capitalises every word.
/// - A name that is a Swift keyword is written in backticks where it is used.
/// Identifiers are ASCII only, so that they can be typed on any keyboard.
package enum SwiftIdentifier {
    /// The words of a text: runs of ASCII letters and digits, accents folded.
    package static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            // An apostrophe joins: "Writer's" is one word, not "Writer" and "s".
            if scalar == "'" || scalar == "\u{2019}" { continue }
            if scalar.isASCII {
                let value = scalar.value
                let isLetterOrDigit = (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
                if isLetterOrDigit {
                    current.unicodeScalars.append(scalar)
                    continue
                }
            } else if let folded = LatinFolding.plain(scalar) {
                current += folded
                continue
            }
            if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The words in identifier order: those that start with a digit and open
    /// the name are moved to its end. Empty when every word starts with a digit.
    static func letterFirst(_ words: [String]) -> (words: [String], movedDigits: [String]) {
        let leading = words.prefix { $0.first?.isASCIIDigit ?? false }
        return (Array(words.dropFirst(leading.count)), Array(leading))
    }

    /// lowerCamelCase of `text`, or nil when it has no letter or digit.
    /// A text whose every word starts with a digit ("2024") gets `prefix`
    /// in front (`product2024`).
    package static func lowerCamel(_ text: String, prefix: String) -> String? {
        let all = words(text)
        guard !all.isEmpty else { return nil }
        let (lettered, digits) = letterFirst(all)
        guard let first = lettered.first else {
            return prefix + digits.map(capitalized).joined()
        }
        return lowered(first) + (lettered.dropFirst() + digits).map(capitalized).joined()
    }

    /// UpperCamelCase of `text`, or nil when it has no letter or digit. A
    /// text whose every word starts with a digit gets `prefix` in front.
    package static func upperCamel(_ text: String, prefix: String) -> String? {
        let all = words(text)
        guard !all.isEmpty else { return nil }
        let (lettered, digits) = letterFirst(all)
        let name = (lettered + digits).map(capitalized).joined()
        return lettered.isEmpty ? prefix + name : name
    }

    /// The name as written in code: in backticks when it is a keyword.
    package static func escaped(_ name: String) -> String {
        SwiftKeywords.reserved.contains(name) ? "`\(name)`" : name
    }

    /// The first word of a lowerCamelCase name: an opening run of capitals
    /// is lowered, all of it when the word is capitals (and digits) only
    /// (`VIP` → `vip`), all but the last otherwise, which starts the next
    /// part (`URLPack` → `urlPack`).
    static func lowered(_ word: String) -> String {
        let scalars = Array(word.unicodeScalars)
        let capitals = scalars.prefix { $0.isASCIIUppercase }.count
        let rest = scalars.dropFirst(capitals)
        let lowerCount: Int
        if rest.allSatisfy({ $0.properties.numericType != nil }) {
            lowerCount = capitals
        } else {
            lowerCount = max(1, capitals - 1)
        }
        var result = ""
        for (index, scalar) in scalars.enumerated() {
            if index < lowerCount, scalar.isASCIIUppercase {
                result.unicodeScalars.append(Unicode.Scalar(scalar.value + 0x20) ?? scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The word with its first letter upper-case (`car` → `Car`, `3d` → `3d`).
    static func capitalized(_ word: String) -> String {
        guard let first = word.unicodeScalars.first, first.isASCIILowercase,
              let upper = Unicode.Scalar(first.value - 0x20) else { return word }
        var result = String(upper)
        result.unicodeScalars.append(contentsOf: word.unicodeScalars.dropFirst())
        return result
    }
}

extension Unicode.Scalar {
    var isASCIIUppercase: Bool { (0x41...0x5A).contains(value) }
    var isASCIILowercase: Bool { (0x61...0x7A).contains(value) }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
