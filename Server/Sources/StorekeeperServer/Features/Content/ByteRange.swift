import Foundation

/// A `Range` header's single byte range (RFC 9110 section 14.1.2), resolved against a size.
enum ByteRange: Equatable {
    /// Bytes `start` through `end`, inclusive, both within the file.
    case satisfiable(start: Int64, end: Int64)
    /// Starts at or past the end: 416.
    case unsatisfiable
    /// Not a single byte range this server reads (several ranges, another unit): answered with the whole file, as RFC 9110 allows.
    case ignored

    /// `header` (`bytes=N-`, `bytes=N-M`, `bytes=-S`) against a file of `size` bytes.
    init(header: String, size: Int64) {
        guard header.hasPrefix("bytes="), !header.contains(",") else { self = .ignored; return }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, bounds.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { self = .ignored; return }
        if bounds[0].isEmpty {
            // A suffix: the last S bytes.
            guard let suffix = Int64(bounds[1]), suffix > 0 else { self = bounds[1].isEmpty ? .ignored : .unsatisfiable; return }
            self = size == 0 ? .unsatisfiable : .satisfiable(start: max(0, size - suffix), end: size - 1)
            return
        }
        guard let start = Int64(bounds[0]) else { self = .unsatisfiable; return }
        guard start < size else { self = .unsatisfiable; return }
        if bounds[1].isEmpty {
            self = .satisfiable(start: start, end: size - 1)
        } else if let last = Int64(bounds[1]) {
            self = last < start ? .ignored : .satisfiable(start: start, end: min(last, size - 1))
        } else {
            // An end past Int64: the rest of the file.
            self = .satisfiable(start: start, end: size - 1)
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
