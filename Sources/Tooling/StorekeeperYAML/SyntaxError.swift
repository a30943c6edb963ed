import CYAML
import StorekeeperCore
import StorekeeperDiagnostics

/// Turns libyaml's terse error (a problem, a context and their marks) into a
/// diagnostic that says, in plain words, what is wrong and how to fix it.
enum SyntaxError {
    static func diagnostic(for parser: yaml_parser_t, file: String, source: UnsafeBufferPointer<UInt8>) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
        let context = parser.context.map { String(cString: $0) }
        func at(_ line: Int, _ column: Int) -> SourceLocation { SourceLocation(file: file, line: line, column: column) }

        switch parser.error {
        case YAML_READER_ERROR:
            var offset = parser.problem_offset
            var value = parser.problem_value
            // libyaml names the byte that broke a character; the character starts at its lead byte.
            if problem == "invalid trailing UTF-8 octet" {
                var index = min(offset, source.count)
                while index > 0, offset - index < 4 {
                    index -= 1
                    if source[index] & 0xC0 == 0xC0 {
                        offset = index
                        value = Int32(source[index])
                        break
                    }
                }
            }
            // For encoding errors, name the byte as it is in the file.
            if problem.contains("UTF-8"), offset < source.count { value = Int32(source[offset]) }
            let position = SourceText.position(ofByte: offset, in: source)
            return Diagnostic(
                .error, rule: YAMLRuleID.syntax,
                readerMessage(problem, value: value),
                at: at(position.line, position.column))
        case YAML_MEMORY_ERROR:
            return Diagnostic(.error, rule: YAMLRuleID.syntax, "libyaml ran out of memory reading this file", at: at(1, 1))
        default:
            let problemMark = clamped(at(parser.problem_mark.line + 1, parser.problem_mark.column + 1), in: source)
            let contextMark = clamped(at(parser.context_mark.line + 1, parser.context_mark.column + 1), in: source)
            let character = SourceText.scalar(atLine: problemMark.line, column: problemMark.column, in: source)
            let (message, primary) = scannerMessage(problem, context: context, character: character, contextMark: contextMark)
            let location = primary ?? problemMark
            var notes: [Diagnostic.Note] = []
            if let context, context.hasPrefix("while"), location != contextMark {
                notes.append(Diagnostic.Note("the problem arose \(context), which starts here", at: contextMark))
            }
            return Diagnostic(.error, rule: YAMLRuleID.syntax, message, at: location, notes: notes)
        }
    }

    /// A position past the end of the text (libyaml's mark after a final line
    /// without a line break) moved back to the end of the last line.
    static func clamped(_ location: SourceLocation, in source: UnsafeBufferPointer<UInt8>) -> SourceLocation {
        let lines = SourceText.lineCount(source)
        guard location.line > lines, lines >= 1 else { return location }
        let last = SourceText.line(lines, in: source) ?? ""
        return SourceLocation(file: location.file, line: lines, column: last.unicodeScalars.count + 1)
    }

    /// A message for a reader error (bad encoding or a forbidden character).
    static func readerMessage(_ problem: String, value: Int32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        switch problem {
        case "control characters are not allowed":
            if value == 0 {
                return "the file holds a NUL byte (U+0000), which YAML does not allow; is it a binary file, or text saved as UTF-16 without a byte order mark? Save it as UTF-8 text"
            }
            return "the control character U+\(padded) is not allowed in YAML; remove it (or write it as an escape, \"\\u\(padded)\", inside double quotes)"
        case "invalid Unicode character":
            return "the character U+\(padded) is not allowed in YAML; remove it"
        case let text where text.contains("UTF-8"):
            let byte = String(value & 0xFF, radix: 16, uppercase: true)
            return "the file is not valid UTF-8 (byte 0x\(byte.count == 1 ? "0" + byte : byte) here: \(text)); it may be Latin-1 or Windows-1252 text: save it as UTF-8"
        case let text where text.contains("UTF-16") || text.contains("surrogate"):
            return "the file is not valid UTF-16 (\(text)); save it as UTF-8"
        default:
            return "YAML cannot read this file: \(problem)"
        }
    }

    /// A message for a scanner or parser error, and the place to report it
    /// when that is better than the problem mark (an unclosed quote: its start).
    static func scannerMessage(
        _ problem: String, context: String?, character: Unicode.Scalar?, contextMark: SourceLocation
    ) -> (String, SourceLocation?) {
        let opened = "\(contextMark.line):\(contextMark.column)"
        if problem.contains("tab") || (problem == "found character that cannot start any token" && character == "\t") {
            return ("a tab character here: YAML indents with spaces only; replace the tab with spaces", nil)
        }
        switch problem {
        case "found character that cannot start any token":
            let shown = character.map { "'\($0)'" } ?? "this character"
            return ("\(shown) cannot start a value in YAML; put the value in quotes", nil)
        case "mapping values are not allowed in this context":
            return ("unexpected ':' here: a value that contains ': ' must be quoted, or this line is indented too far", nil)
        case "could not find expected ':'":
            return ("the key that starts at \(opened) is not followed by ':'; write `key: value`, and quote a value that spans lines", contextMark)
        case "found unexpected end of stream" where context?.contains("quoted scalar") == true:
            return ("this quoted text is never closed; add the closing quote", contextMark)
        case "found unexpected end of stream":
            return ("the file ends in the middle of a value (\(context ?? "")); complete or remove it", nil)
        case "found unknown escape character":
            return ("unknown escape sequence in double-quoted text; write \\\\ for a backslash, or use single quotes", nil)
        case "did not find expected key":
            return ("this line does not line up with the keys of the mapping that starts at \(opened); indent it like them, or quote the value above if it continues there", nil)
        case "did not find expected '-' indicator":
            return ("expected a list item ('- ') at this indentation, like the list that starts at \(opened)", nil)
        case "did not find expected node content":
            return ("a value is missing here", nil)
        case "did not find expected ',' or ']'":
            return ("expected ',' or ']' here, in the list opened at \(opened)", nil)
        case "did not find expected ',' or '}'":
            return ("expected ',' or '}' here, in the mapping opened at \(opened)", nil)
        case "block sequence entries are not allowed in this context":
            return ("a list item ('- ') cannot start here; put a list under its key on the next lines, indented", nil)
        case "did not find expected <document start>":
            return ("unexpected text after the end of the document: every line must belong to the mapping above it", nil)
        case "did not find expected alphabetic or numeric character":
            return ("an anchor or alias name (after & or *) must be letters, digits, '-' or '_'; quote the value if '&' or '*' is part of the text", nil)
        default:
            let suffix = context.map { " (\($0))" } ?? ""
            return ("YAML cannot read this: \(problem)\(suffix)", nil)
        }
    }
}
