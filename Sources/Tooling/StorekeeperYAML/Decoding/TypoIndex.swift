package import StorekeeperDiagnostics

/// Where unknown keys that look like typos of a known key were reported, by
/// the key they suggest and the file, in source order: asking whether a
/// mapping holds a typo is a binary search, not a scan of every typo so far
/// (a catalog that repeats `prise:` in every product asks once per product,
/// which made validation quadratic). Every located-YAML decoder keeps one
/// in its ``YAMLDecodingContext``.
package struct TypoIndex {
    /// A typo's start, ordered as in the file.
    private struct Position: Comparable {
        var line: Int
        var column: Int

        init(_ location: SourceLocation) {
            line = location.line
            column = location.column
        }

        static func < (a: Position, b: Position) -> Bool {
            (a.line, a.column) < (b.line, b.column)
        }
    }

    /// Suggested key and file id -> starts of the typos, sorted.
    private var starts: [Key: [Position]] = [:]

    private struct Key: Hashable {
        var suggested: String
        var fileID: UInt32
    }

    /// An index of no typos.
    package init() {}

    /// Records an unknown key at `range` read as a typo of `suggested`.
    package mutating func record(_ suggested: String, at range: SourceRange) {
        let position = Position(range.start)
        let key = Key(suggested: suggested, fileID: range.fileID)
        // Keys are met in source order, so this is nearly always an append.
        if let last = starts[key]?.last, position < last {
            starts[key, default: []].insert(position, at: Self.firstIndex(notBefore: position, in: starts[key] ?? []))
        } else {
            starts[key, default: []].append(position)
        }
    }

    /// Whether a typo of `suggested` starts inside `range` (its end excluded).
    package func contains(_ suggested: String, in range: SourceRange) -> Bool {
        guard let positions = starts[Key(suggested: suggested, fileID: range.fileID)] else { return false }
        let start = Position(range.start), end = Position(range.end)
        let index = Self.firstIndex(notBefore: start, in: positions)
        return index < positions.endIndex && positions[index] < end
    }

    /// The index of the first position not before `position` (the end index when there is none).
    private static func firstIndex(notBefore position: Position, in positions: [Position]) -> Int {
        var low = positions.startIndex, high = positions.endIndex
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < position { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
