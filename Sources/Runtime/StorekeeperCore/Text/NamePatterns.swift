/// The character and length rules for ids and names, as pure checks. Each
/// returns nil when the text is fine, or what is wrong with it.
package enum NamePatterns {
    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
    }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }

    /// The first character outside an allowed set, for the message.
    private static func firstInvalid(_ text: String, allowed: (UInt8) -> Bool) -> String? {
        for scalar in text.unicodeScalars where !(scalar.isASCII && allowed(UInt8(scalar.value))) {
            return describe(scalar)
        }
        return nil
    }

    /// A character as a message shows it: "a space", "the invisible
    /// character U+00A0", or a visible one quoted with its code point,
    /// "'é' (U+00E9)", which tells look-alikes apart. Every message about a
    /// character in a name (the catalog's, the scenarios', storekeeper.yml's)
    /// says it this way.
    ///
    /// - Parameter visibleWithCodePoint: false quotes a visible character
    ///   alone ("'x'"), as storekeeper.yml's step names always have.
    package static func describe(_ scalar: Unicode.Scalar, visibleWithCodePoint: Bool = true) -> String {
        if scalar == " " { return "a space" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
            || scalar.properties.generalCategory == .format {
            return "the invisible character \(code)"
        }
        return visibleWithCodePoint ? "'\(scalar)' (\(code))" : "'\(scalar)'"
    }

    /// Product ids: 1 to 100 of `A-Z a-z 0-9 . _ -`.
    package static func productID(_ text: String) -> String? {
        // The common case, checked on bytes: every product has an id.
        var text = text
        let clean = text.withUTF8 { bytes in
            guard bytes.count <= 100 else { return false }
            for byte in bytes where !(isLetter(byte) || isDigit(byte) || byte == 0x2E || byte == 0x5F || byte == 0x2D) {
                return false
            }
            return true
        }
        if clean, !text.isEmpty { return nil }
        if text.isEmpty { return "is empty; a product id has 1 to 100 characters" }
        if let bad = firstInvalid(text, allowed: { isLetter($0) || isDigit($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }) {
            return "contains \(bad); product ids use only letters, digits, '.', '_' and '-'"
        }
        return "is \(text.unicodeScalars.count) characters long; product ids have at most 100"
    }

    /// Catalog names: lower-case letters, digits and `-`.
    package static func catalogName(_ text: String) -> String? {
        if text.isEmpty { return "is empty; name the catalog with lower-case letters, digits and '-', like rocket-racer" }
        if text.utf8.count > 64, text.unicodeScalars.count > 64 { return "is \(text.unicodeScalars.count) characters long; a catalog name has at most 64" }
        if let bad = firstInvalid(text, allowed: { isLower($0) || isDigit($0) || $0 == 0x2D }) {
            return "contains \(bad); a catalog name uses only lower-case letters, digits and '-'"
        }
        return nil
    }

    /// Features, balances, groups and rules: a letter, then letters, digits,
    /// `-`, `_` or `.`; at most 64 characters. (Generated code turns them
    /// into identifiers, so they must start with a letter.)
    package static func symbol(_ text: String, kind: String) -> String? {
        let count = text.utf8.count
        if count == 0 { return "is empty; a \(kind) name starts with a letter" }
        if let first = text.utf8.first, !isLetter(first) {
            let what = text.utf8.first.map { $0 < 0x80 } ?? true ? "a letter" : "an ASCII letter (generated code makes identifiers of names)"
            return "starts with '\(text.prefix(1))'; a \(kind) name starts with \(what)"
        }
        if let bad = firstInvalid(text, allowed: { isLetter($0) || isDigit($0) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E }) {
            return "contains \(bad); a \(kind) name uses only ASCII letters, digits, '-', '_' and '.'"
        }
        // Checked after the characters: a name that passes them is ASCII, so bytes are characters.
        if count > 64 { return "is \(count) characters long; a \(kind) name has at most 64" }
        return nil
    }

    /// Bundle ids: reverse-DNS, at least two dot-separated parts of letters, digits and `-`.
    package static func bundleID(_ text: String) -> String? {
        if let bad = firstInvalid(text, allowed: { isLetter($0) || isDigit($0) || $0 == 0x2D || $0 == 0x2E }) {
            return "contains \(bad); a bundle id uses only letters, digits, '-' and '.'"
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count < 2 || parts.contains(where: \.isEmpty) {
            return "is not in reverse-DNS form; write it like com.example.app"
        }
        return nil
    }

    /// Locales: a language (2 or 3 lower-case letters), an optional script
    /// (`Hans`) and an optional region (`US`, `419`), joined by `-`.
    /// Checked byte by byte: every localization of every product has one.
    package static func locale(_ text: String) -> String? {
        if text.utf8.contains(UInt8(ascii: "_")) {
            let fixed = text.replacingOccurrences(of: "_", with: "-")
            return "uses '_'; catalogs write locales with '-' (\(fixed))"
        }
        /// What the next segment may be: 0 language, 1 script or region, 2 region, 3 nothing.
        var expecting = 0
        var valid = true
        var length = 0, allLower = true, allUpper = true, allDigits = true, titleCase = true
        func endSegment() {
            let isScript = length == 4 && titleCase
            let isRegion = (length == 2 && allUpper) || (length == 3 && allDigits)
            switch expecting {
            case 0 where (2...3).contains(length) && allLower: expecting = 1
            case 1 where isScript: expecting = 2
            case 1 where isRegion, 2 where isRegion: expecting = 3
            default: valid = false
            }
            length = 0
            allLower = true
            allUpper = true
            allDigits = true
            titleCase = true
        }
        for byte in text.utf8 {
            if byte == UInt8(ascii: "-") {
                endSegment()
                continue
            }
            let lower = isLower(byte), upper = byte >= 0x41 && byte <= 0x5A
            allLower = allLower && lower
            allUpper = allUpper && upper
            allDigits = allDigits && isDigit(byte)
            titleCase = titleCase && (length == 0 ? upper : lower)
            length += 1
        }
        endSegment()
        return valid ? nil : "is not a locale; write a language code with an optional script and region, like en-US, fr, pt-BR or zh-Hans"
    }
}

extension String {
    /// Every occurrence of one string replaced with another (no Foundation needed).
    package func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
