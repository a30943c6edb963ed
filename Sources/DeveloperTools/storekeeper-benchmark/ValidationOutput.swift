/// What `storekeeper validate --format json` printed, read back to check that a generated catalog validates clean.
///
/// The exit status alone cannot say so: warnings and notes leave it at 0, yet a validation that has
/// diagnostics to format is not the validation of a clean catalog that the benchmark means to time.
enum ValidationOutput {
    /// Whether `json`, a report in the shape of storekeeper's JSON reporter, lists no diagnostic: its
    /// `diagnostics` member (the first one with that name, which the reporter writes before any
    /// diagnostic) is an empty array, however the document is indented.
    static func listsNoDiagnostic(_ json: [UInt8]) -> Bool {
        let member = Array(#""diagnostics""#.utf8)
        guard json.count >= member.count,
              let start = (0...(json.count - member.count)).first(where: { json[$0..<($0 + member.count)].elementsEqual(member) })
        else { return false }
        let tokens = json[(start + member.count)...].lazy.filter { !isWhitespace($0) }.prefix(3)
        return Array(tokens) == Array(":[]".utf8)
    }

    /// Whether `byte` is whitespace between JSON tokens.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}
