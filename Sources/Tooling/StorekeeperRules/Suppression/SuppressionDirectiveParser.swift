import StorekeeperCore
import StorekeeperDiagnostics

/// Reads one `# storekeeper:` comment line:
/// `storekeeper:disable-next-line RULE-ID[, RULE-ID...] -- reason`.
/// Every problem is an `invalid-suppression` error at the part to change,
/// and a comment with any problem suppresses nothing.
struct SuppressionDirectiveParser {
    /// What a comment line turned out to be.
    enum Outcome {
        /// Prose that happens to start with `storekeeper: ` (a space, then not a directive word).
        case notADirective
        /// A directive with a problem (reported).
        case invalid
        /// A valid suppression.
        case valid(rules: [Suppression.Rule], reason: String)
    }

    static let directive = "disable-next-line"
    static let form = "# storekeeper:disable-next-line RULE-ID -- reason"

    let file: String
    let fileID: UInt32
    let policyRules: Set<String>
    private(set) var diagnostics: [Diagnostic] = []

    init(file: String, policyRules: Set<String>) {
        self.file = file
        fileID = SourceFileTable.id(for: file)
        self.policyRules = policyRules
    }

    mutating func parse(_ line: CommentLine) -> Outcome {
        let bytes = line.bytes
        var index = line.hash + 1
        skipBlanks(bytes, &index)
        let keywordStart = index
        index += SuppressionScanner.keyword.count  // checked by the scanner
        let keywordEnd = index
        skipBlanks(bytes, &index)
        let wordStart = index
        while index < bytes.count, !isBlank(bytes[index]) { index += 1 }
        let word = text(bytes, wordStart, index)

        guard word == Self.directive else {
            // `storekeeper: something` with a space is a directive only if the word looks like one;
            // otherwise it is prose (`# storekeeper: catalogs for the app`).
            if wordStart > keywordEnd, !Self.looksLikeDirective(word) { return .notADirective }
            malformed(word, rest: trimmed(bytes, index, bytes.count), line: line, at: word.isEmpty ? (keywordStart, keywordEnd) : (wordStart, index))
            return .invalid
        }

        // Rule ids, separated by commas.
        skipBlanks(bytes, &index)
        if index == bytes.count || startsSeparator(bytes, index) {
            error("name the rules to suppress: write `\(Self.form)`", line, wordStart, wordStart + Self.directive.utf8.count)
            return .invalid
        }
        var ids: [(id: String, start: Int, end: Int)] = []
        // A `--` written against an id (`display-length--approved`): the reason's separator.
        var glued: Int?
        // Where the line's last separator with a blank before it starts, found once (when an id holds `--`).
        var knownSeparator: Int??
        while true {
            let start = index
            while index < bytes.count, !isBlank(bytes[index]), bytes[index] != UInt8(ascii: ",") {
                // Rule ids never hold `--`: it starts the reason, unless a separator follows
                // (then the `--` is a typo inside the id, reported as an unknown id).
                if index > start, startsSeparator(bytes, index) {
                    let last = knownSeparator ?? lastSeparator(in: bytes)
                    knownSeparator = last
                    if (last ?? -1) < index + 2 {
                        glued = index
                        break
                    }
                }
                index += 1
            }
            ids.append((text(bytes, start, index), start, index))
            if glued != nil { break }
            skipBlanks(bytes, &index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            let comma = index
            index += 1
            skipBlanks(bytes, &index)
            if index == bytes.count || bytes[index] == UInt8(ascii: ",") || startsSeparator(bytes, index) {
                error("a rule id is missing after ','; remove the comma or name another rule", line, comma, comma + 1)
                return .invalid
            }
        }
        let idList = QuotedText.quoted(ids.map { QuotedText.quoted($0.id) }.joined(separator: ", "), limit: Self.quotedTextLimit, keep: Self.quotedTextKeep)

        // The reason, after `--`.
        var valid = true
        var reason = ""
        if let glued {
            let written = trimmed(bytes, glued + 2, bytes.count)
            let fix = "# storekeeper:disable-next-line \(idList) -- \(written.isEmpty ? "why the rule does not apply here" : quotedText(written))"
            error("'--' starts the reason, and needs a space before it: write `\(fix)`", line, glued, glued + 2)
            valid = false
        } else if index == bytes.count {
            let end = ids.last?.end ?? index
            error("a suppression needs a reason after ' -- ': write `# storekeeper:disable-next-line \(idList) -- why the rule does not apply here`", line, end, end)
            valid = false
        } else if startsSeparator(bytes, index) {
            reason = trimmed(bytes, index + 2, bytes.count)
            if reason.isEmpty {
                error("the reason after '--' is empty; say why the rule does not apply here: `# storekeeper:disable-next-line \(idList) -- reason`", line, index, index + 2)
                valid = false
            }
        } else {
            // Words after the ids without a comma or `--` before them.
            var separator: Int?
            var probe = index + 1
            while probe + 1 < bytes.count {
                if isBlank(bytes[probe - 1]), startsSeparator(bytes, probe) {
                    separator = probe
                    break
                }
                probe += 1
            }
            if let separator {
                var end = separator
                while end > index, isBlank(bytes[end - 1]) { end -= 1 }
                let words = text(bytes, index, end).split(whereSeparator: { $0 == " " || $0 == "\t" })
                if words.allSatisfy(Self.isIDShaped) {
                    error("separate rule ids with commas: `\(idList), \(quotedText(words.map { QuotedText.quoted(String($0)) }.joined(separator: ", ")))`", line, index, end)
                } else {
                    error("'\(quotedText(words.joined(separator: " ")))' follows the rule ids without a comma; separate rule ids with commas, and write the reason after ' -- '", line, index, end)
                }
            } else {
                let extra = trimmed(bytes, index, bytes.count)
                error("the reason must follow ' -- ': write `# storekeeper:disable-next-line \(idList) -- \(quotedText(extra))`", line, index, index + extra.utf8.count)
            }
            valid = false
        }

        // Each id must be a policy rule; format checks cannot be suppressed.
        var rules: [Suppression.Rule] = []
        for id in ids {
            guard policyRules.contains(id.id) else {
                unknownRule(id.id, line, id.start, id.end)
                valid = false
                continue
            }
            if !rules.contains(where: { $0.id == id.id }) {
                rules.append(Suppression.Rule(id: id.id, range: range(line, id.start, id.end)))
            }
        }
        return valid ? .valid(rules: rules, reason: reason) : .invalid
    }

    // MARK: Problems

    private mutating func malformed(_ word: String, rest: String, line: CommentLine, at span: (start: Int, end: Int)) {
        let written = "storekeeper:" + QuotedText.quoted(word)
        let fix = "`# storekeeper:disable-next-line \(rest.isEmpty ? "RULE-ID -- reason" : quotedText(rest))`"
        let message: String
        switch word {
        case "":
            message = "'storekeeper:' names no directive; to suppress a rule on the next line, write \(fix)"
        case "disable-line":
            message = "'\(written)' is not supported: a suppression goes on a line of its own, above the line it applies to; write \(fix) there"
        case "disable", "enable", "disable-file", "enable-file", "disable-all":
            message = "'\(written)' is not supported: suppressions apply to one line at a time; write \(fix) above each line to suppress"
        default:
            message = "'\(written)' is not a directive; did you mean 'storekeeper:disable-next-line'? Write \(fix)"
        }
        error(message, line, span.start, span.end)
    }

    private mutating func unknownRule(_ id: String, _ line: CommentLine, _ start: Int, _ end: Int) {
        error(RuleIDProblem.message(for: id, policyRules: policyRules, place: .suppression), line, start, end)
    }

    /// Free text a message repeats (a reason, the rest of a comment) is
    /// quoted whole up to this many characters, and cut to `quotedTextKeep` beyond.
    static let quotedTextLimit = 500
    static let quotedTextKeep = 200

    /// Free text as a message quotes it: longer than ids may be, but never the whole of a huge line.
    private func quotedText(_ text: String) -> String {
        QuotedText.quoted(text, limit: Self.quotedTextLimit, keep: Self.quotedTextKeep)
    }

    /// Whether a word could be a rule id (lower-case kebab case), not a word of a reason.
    static func isIDShaped(_ word: Substring) -> Bool {
        word.contains("-") && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// Words a misspelt or unsupported directive starts with.
    static func looksLikeDirective(_ word: String) -> Bool {
        word.hasPrefix("disable") || word.hasPrefix("enable") || Suggestion.isMisspelling(word, of: directive, edits: 3)
    }

    private mutating func error(_ message: String, _ line: CommentLine, _ start: Int, _ end: Int) {
        diagnostics.append(Diagnostic(.error, rule: SuppressionRuleID.invalid, message, at: range(line, start, end)))
    }

    private func range(_ line: CommentLine, _ start: Int, _ end: Int) -> SourceRange {
        SourceRange(
            fileID: fileID, startLine: UInt32(clamping: line.number), startColumn: UInt32(clamping: line.column(of: start)),
            endLine: UInt32(clamping: line.number), endColumn: UInt32(clamping: line.column(of: end)))
    }

    // MARK: Bytes

    private func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private func skipBlanks(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count, isBlank(bytes[index]) { index += 1 }
    }

    /// Whether `--` starts at `index` (the reason follows, with or without a space).
    private func startsSeparator(_ bytes: [UInt8], _ index: Int) -> Bool {
        index + 1 < bytes.count && bytes[index] == UInt8(ascii: "-") && bytes[index + 1] == UInt8(ascii: "-")
    }

    /// Where the last `--` with a blank before it (a reason's separator) starts, if any.
    private func lastSeparator(in bytes: [UInt8]) -> Int? {
        var index = bytes.count - 2
        while index >= 1 {
            if isBlank(bytes[index - 1]), startsSeparator(bytes, index) { return index }
            index -= 1
        }
        return nil
    }

    private func text(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }

    private func trimmed(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String {
        var start = start, end = end
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return text(bytes, start, end)
    }
}
