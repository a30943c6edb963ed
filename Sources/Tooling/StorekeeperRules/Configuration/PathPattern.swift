/// One pattern of an override's `paths`, matched against a file's path
/// relative to the folder holding the configuration, the way `.gitignore`
/// matches: `*` within one segment, `**` across any number of segments, `?`
/// one character; a pattern without `/` matches a file or folder name at any
/// depth, a pattern with one matches from that folder, and a pattern ending
/// in `/` matches only folders. A pattern that matches a folder matches every
/// file inside it, however deep (`Catalogs/legacy`, `**/old`).
struct PathPattern: Sendable, Hashable {
    /// One `/`-separated part of a pattern.
    enum Segment: Sendable, Hashable {
        /// `**`: any number of segments, none included.
        case anyDepth
        /// A name with `*` and `?` wildcards, as Unicode scalars so that `?` is one character.
        case name([Unicode.Scalar])
    }

    /// The pattern as written.
    let text: String
    let segments: [Segment]
    /// No `/` before the end: the pattern matches one name at any depth.
    let unanchored: Bool
    /// Written with a trailing `/`: only a folder matches, and then every file in it.
    let foldersOnly: Bool
    /// Whether `segments` holds a `**`; without one, a match is a comparison segment by segment.
    let hasAnyDepth: Bool

    init(text: String, segments: [Segment], unanchored: Bool, foldersOnly: Bool) {
        self.text = text
        self.segments = segments
        self.unanchored = unanchored
        self.foldersOnly = foldersOnly
        hasAnyDepth = segments.contains(.anyDepth)
    }

    /// The pattern, or what is wrong with it: a phrase that follows "the path pattern '…'".
    static func compile(_ text: String) -> Result<PathPattern, PatternProblem> {
        if text.allSatisfy({ $0 == " " || $0 == "\t" }) {
            return .failure(PatternProblem("is empty, so it matches no file; write one such as \"legacy/**\" or \"*.draft.yaml\""))
        }
        if text.contains("\\") {
            return .failure(PatternProblem("contains '\\'; separate folders with '/', as in \"legacy/**\", on every system"))
        }
        if text.hasPrefix("!") {
            return .failure(PatternProblem("starts with '!', but patterns cannot be negated; list the paths the override applies to"))
        }
        if text.contains("[") || text.contains("]") {
            return .failure(PatternProblem("contains '[' or ']', but character classes are not supported; use '?' for any one character"))
        }
        if text.contains("{") || text.contains("}") {
            return .failure(PatternProblem("contains '{' or '}', but braces are not supported; list each pattern instead\(braceExpansion(text))"))
        }
        var rest = Substring(text)
        while rest.hasPrefix("./") { rest = rest.dropFirst(2) }
        // A leading `/` anchors to the configuration's folder, as in .gitignore.
        let rooted = rest.hasPrefix("/")
        let foldersOnly = rest.hasSuffix("/")
        let parts = rest.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if parts.contains("..") {
            return .failure(PatternProblem("contains '..', but patterns are relative to the folder holding the configuration and cannot leave it; move the configuration up, or write a pattern inside its folder"))
        }
        if parts.isEmpty {
            return .failure(PatternProblem("names no file or folder; write \"**\" to match every file"))
        }
        var segments: [Segment] = parts.map { $0 == "**" ? .anyDepth : .name(Array($0.unicodeScalars)) }
        if segments.count > 1, segments.last == .anyDepth {
            // A trailing `/**` matches what is inside the folder, not a file of the folder's name.
            segments.insert(.name(["*"]), at: segments.count - 1)
        }
        let unanchored = !rooted && parts.count == 1 && segments != [.anyDepth]
        return .success(PathPattern(text: text, segments: segments, unanchored: unanchored, foldersOnly: foldersOnly))
    }

    /// Whether the file at `path` (its segments, relative to the configuration's folder) matches.
    ///
    /// As in `.gitignore`, a pattern matches the file, or a folder the file
    /// is in (a proper prefix of its path): every file in a matching folder
    /// matches. A pattern ending in `/` matches folders only.
    func matches(_ path: [[Unicode.Scalar]]) -> Bool {
        guard !path.isEmpty else { return false }
        if unanchored, case .name(let name)? = segments.first {
            // A name at any depth: the file's own name, or a folder it is in.
            let candidates = foldersOnly ? path.dropLast() : path[...]
            return candidates.contains { Self.matches(name: name, $0) }
        }
        guard hasAnyDepth else {
            // Segment by segment: the pattern names the file, or a folder above it.
            guard segments.count < path.count || (segments.count == path.count && !foldersOnly) else { return false }
            for (segment, part) in zip(segments, path) {
                guard case .name(let name) = segment, Self.matches(name: name, part) else { return false }
            }
            return true
        }
        let reached = reachable(path)
        // A folder (a proper prefix of the path) matches: every file in it does.
        if reached[1..<path.count].contains(true) { return true }
        return !foldersOnly && reached[path.count]
    }

    /// For each prefix length of `path`, whether the whole pattern matches that prefix.
    private func reachable(_ path: [[Unicode.Scalar]]) -> [Bool] {
        var current = [Bool](repeating: false, count: path.count + 1)
        var next = current
        current[0] = true
        for segment in segments {
            switch segment {
            case .anyDepth:
                var seen = false
                for index in 0...path.count {
                    seen = seen || current[index]
                    next[index] = seen
                }
            case .name(let name):
                next[0] = false
                for index in 0..<path.count {
                    next[index + 1] = current[index] && Self.matches(name: name, path[index])
                }
            }
            swap(&current, &next)
        }
        return current
    }

    /// `*` (any run, `**` inside a name included) and `?` (one character) within one name.
    static func matches(name pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        var p = 0, t = 0
        var star = -1, mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                star = p
                mark = t
                p += 1
            } else if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// `: "a.yaml", "a.yml"` for a pattern with one brace group, else "".
    private static func braceExpansion(_ text: String) -> String {
        guard let open = text.firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}"),
              !text[text.index(after: close)...].contains("{"), !text[..<open].contains("}")
        else { return "" }
        let prefix = text[..<open], suffix = text[text.index(after: close)...]
        let choices = text[text.index(after: open)..<close].split(separator: ",", omittingEmptySubsequences: false)
        guard choices.count > 1 else { return "" }
        return ": " + choices.map { "\"\(prefix)\($0)\(suffix)\"" }.joined(separator: ", ")
    }
}

/// What is wrong with a path pattern, as the end of a sentence.
struct PatternProblem: Error, Sendable, Hashable {
    let message: String
    init(_ message: String) { self.message = message }
}
