/// How the decoders above this layer read a scalar as a boolean or a whole
/// number: the interpretation only, which each decoder reports on with its
/// own rule ids and wording.
///
/// Booleans are YAML 1.2's: `true` and `false` (also capitalised or all
/// capitals), plain and untagged. The YAML 1.1 spellings (`yes`, `no`, `on`,
/// `off`, `y`, `n`) are told apart so that a decoder can refuse them with the
/// value they were probably meant as, and so is quoted or tagged text that
/// only looks boolean. Whole numbers are plain digits that fit 64 bits,
/// written without quotes, tag or leading zero.
package enum ScalarReading {
    /// What a scalar is, read as a boolean.
    package enum Boolean: Sendable, Hashable {
        /// `true` or `false` in one of YAML 1.2's spellings, plain and untagged.
        case value(Bool)
        /// A YAML 1.1 spelling, plain and untagged, that some tools read as
        /// this value and others as text: `yes`, `on`, `y` (true) or `no`,
        /// `off`, `n` (false), in any case.
        case yaml11(Bool)
        /// Text that reads `true` or `false` in any case, quoted or tagged,
        /// and so not a boolean; the value it spells.
        case quoted(Bool)
        /// Anything else, a sequence or a mapping included.
        case notBoolean
    }

    /// What a scalar is, read as a whole number.
    package enum WholeNumber: Sendable, Hashable {
        /// Plain digits, untagged, without a leading zero.
        case value(UInt64)
        /// Not digits only (or no text at all, or a sequence or a mapping).
        case notANumber
        /// Digits only, more than 64 bits hold.
        case tooLarge
        /// Digits in quotes or a block scalar: text, not a number.
        case quoted(UInt64)
        /// Plain digits with an explicit tag.
        case tagged(UInt64, tag: String)
        /// Plain, untagged digits starting with `0` (more than one of them),
        /// which some YAML tools read as an octal number.
        case leadingZero(UInt64)
    }

    /// Reads a node as a boolean.
    ///
    /// - Parameter node: The node to read; a sequence or a mapping is ``Boolean/notBoolean``.
    /// - Returns: The value, a YAML 1.1 spelling or quoted text that looks
    ///   boolean (with the value each spells), or ``Boolean/notBoolean``.
    package static func boolean(_ node: YAMLNode) -> Boolean {
        guard let text = node.text else { return .notBoolean }
        if node.scalarStyle == .plain, node.tag == nil {
            switch text {
            case "true", "True", "TRUE": return .value(true)
            case "false", "False", "FALSE": return .value(false)
            default: break
            }
            switch text.lowercased() {
            case "yes", "on", "y": return .yaml11(true)
            case "no", "off", "n": return .yaml11(false)
            default: return .notBoolean
            }
        }
        switch text.lowercased() {
        case "true": return .quoted(true)
        case "false": return .quoted(false)
        default: return .notBoolean
        }
    }

    /// Reads a node as a whole number. The problems are told in this order:
    /// not digits, too large, quoted, tagged, leading zero.
    ///
    /// - Parameter node: The node to read; a sequence or a mapping is ``WholeNumber/notANumber``.
    /// - Returns: The value, or what keeps the node from being one (with the
    ///   value its digits spell where they fit 64 bits).
    package static func wholeNumber(_ node: YAMLNode) -> WholeNumber {
        guard let text = node.text else { return .notANumber }
        switch wholeNumber(text) {
        case nil: return .notANumber
        case .some(nil): return .tooLarge
        case .some(let value?):
            if node.scalarStyle != .plain { return .quoted(value) }
            if let tag = node.tag { return .tagged(value, tag: tag) }
            if text.utf8.count > 1, text.utf8.first == UInt8(ascii: "0") { return .leadingZero(value) }
            return .value(value)
        }
    }

    /// Reads text made of ASCII digits only (no sign, space or separator).
    ///
    /// - Parameter text: The text to read.
    /// - Returns: nil when the text is empty or holds anything but digits,
    ///   `.some(nil)` when its digits are too large for 64 bits, and the value otherwise.
    package static func wholeNumber(_ text: some StringProtocol) -> UInt64?? {
        guard !text.isEmpty else { return nil }
        var value: UInt64 = 0
        var overflow = false
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            if o1 || o2 { overflow = true }
            value = sum
        }
        return overflow ? .some(nil) : .some(value)
    }
}
