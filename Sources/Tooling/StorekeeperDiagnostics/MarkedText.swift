/// Text with positions marked in it by a character, as rule and check
/// examples write them (`persistence: ↓icloud`): the examples are both the
/// documentation and the tests, and the marks say where a finding must be.
package enum MarkedText {
    /// The text without its marks, and the 1-based line and column (counted
    /// in Unicode scalars) that each mark stood at.
    package static func split(_ marked: String, mark: Unicode.Scalar = "↓") -> (text: String, markers: [(line: Int, column: Int)]) {
        var text = String.UnicodeScalarView()
        var markers: [(line: Int, column: Int)] = []
        var line = 1, column = 1
        for scalar in marked.unicodeScalars {
            if scalar == mark {
                markers.append((line, column))
                continue
            }
            text.append(scalar)
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (String(text), markers)
    }
}
