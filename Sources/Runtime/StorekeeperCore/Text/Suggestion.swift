/// "Did you mean" suggestions: the known name nearest to what the author wrote.
package enum Suggestion {
    /// The candidate closest to `word` by edit distance (case-insensitive), if
    /// it is close enough to be a plausible typo: at most a third of the
    /// word's length, and at least one edit allowed. A candidate that contains
    /// the word, or is contained in it, also counts (`coin` for `coins`).
    package static func nearest<S: Sequence>(to word: String, in candidates: S) -> String?
    where S.Element == String {
        let target = Array(word.lowercased().unicodeScalars)
        guard !target.isEmpty else { return nil }
        let limit = max(1, target.count / 3)
        var best: (name: String, distance: Int)?
        var examined = 0
        for candidate in candidates {
            examined += 1
            // Lengths too far apart cannot be within the limit: skip before allocating.
            if abs(candidate.unicodeScalars.count - target.count) > limit { continue }
            let other = Array(candidate.lowercased().unicodeScalars)
            let distance = editDistance(target, other, limit: limit)
            if distance <= limit, best.map({ distance < $0.distance }) ?? true {
                best = (candidate, distance)
            }
        }
        if let best { return best.name }
        // The containment fallback is for short lists of names, not for thousands of ids.
        guard examined <= 1_000 else { return nil }
        let lowered = word.lowercased()
        return candidates.first { candidate in
            let other = candidate.lowercased()
            return other.count >= 3 && lowered.count >= 3
                && (other.contains(lowered) || lowered.contains(other))
        }
    }

    /// Whether `word` is `target` with at most `edits` typing mistakes
    /// (insertions, deletions, substitutions or swapped neighbours), case-insensitively.
    package static func isMisspelling(_ word: String, of target: String, edits: Int = 1) -> Bool {
        let a = Array(word.lowercased().unicodeScalars), b = Array(target.lowercased().unicodeScalars)
        return editDistance(a, b, limit: edits) <= edits
    }

    /// ", did you mean 'x'?" or "" when nothing is close: ready to append to a message.
    package static func didYouMean<S: Sequence>(_ word: String, in candidates: S) -> String
    where S.Element == String {
        nearest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Damerau-style edit distance (insert, delete, substitute, swap two
    /// neighbours), giving up early once every path exceeds `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
