/// Builds Swift source line by line, four spaces per level of nesting.
struct SourceWriter {
    /// The text so far; every line ends with a line break.
    private(set) var text = ""
    private var depth = 0

    /// Adds a line at the current depth (an empty line has no indentation).
    mutating func line(_ content: String = "") {
        if !content.isEmpty { text += String(repeating: "    ", count: depth) + content }
        text += "\n"
    }

    /// Adds `opening`, the body one level deeper, then `}`.
    mutating func block(_ opening: String, _ body: (inout SourceWriter) -> Void) {
        line(opening + " {")
        depth += 1
        body(&self)
        depth -= 1
        line("}")
    }

    /// Adds `///` lines (a paragraph per element, with `///` lines between).
    mutating func documentation(_ paragraphs: [String]) {
        for (index, paragraph) in paragraphs.enumerated() {
            if index > 0 { line("///") }
            line("/// " + paragraph)
        }
    }
}
