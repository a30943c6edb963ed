import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON

/// How an imported catalog writes text: plain when every YAML tool reads it
/// back as the same text, double-quoted (JSON's escapes, which YAML shares)
/// otherwise.
enum YAMLScalar {
    static func text(_ value: String) -> String {
        isPlainSafe(value) ? value : JSONWriter.quoted(value)
    }

    /// Always quoted: prices, which the catalog format's examples quote.
    static func quoted(_ value: String) -> String { JSONWriter.quoted(value) }

    /// Words some YAML tools read as booleans or null.
    private static let special: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]

    private static func isPlainSafe(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, let last = value.unicodeScalars.last else { return false }
        guard first.properties.isAlphabetic || (first.value < 0x80 && first.properties.numericType != nil && !looksNumeric(value)) else { return false }
        guard !last.properties.isWhitespace, !special.contains(value.lowercased()) else { return false }
        for scalar in value.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { continue }
            if " .-_()/'!?&+".unicodeScalars.contains(scalar) { continue }
            return false
        }
        return !value.contains(" #")
    }

    /// Whether YAML tools could read the text as a number.
    private static func looksNumeric(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy { ($0.value >= 0x30 && $0.value <= 0x39) || "+-.eE_xXoObB:".unicodeScalars.contains($0) }
    }
}
