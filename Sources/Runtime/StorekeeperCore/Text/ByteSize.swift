/// A size of content: `45MB`, `1.5 GB`, `800KB`, `120000 B`.
///
/// Units are decimal (1 MB = 1,000,000 bytes), as App Store Connect counts;
/// `KiB`, `MiB` and `GiB` are binary.
public struct ByteSize: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The size in bytes.
    public var bytes: Int64

    /// Creates a size.
    public init(bytes: Int64) { self.bytes = bytes }

    /// The units accepted after the number.
    public static let units: [(name: String, factor: Int64)] = [
        ("B", 1), ("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000),
        ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30),
    ]

    /// Parses a number (whole, or with a decimal part) and a unit, with
    /// optional space between.
    public init?(parsing text: String) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionScale: Int64 = 1
        var sawDigit = false
        while index < scalars.count, let digit = Self.digit(scalars[index]) {
            whole = whole * 10 + digit
            guard whole < 1 << 40 else { return nil }
            sawDigit = true
            index += 1
        }
        if index < scalars.count, scalars[index] == "." {
            index += 1
            while index < scalars.count, let digit = Self.digit(scalars[index]) {
                guard fractionScale < 1_000_000 else { return nil }
                fraction = fraction * 10 + digit
                fractionScale *= 10
                index += 1
            }
        }
        guard sawDigit else { return nil }
        while index < scalars.count, scalars[index] == " " { index += 1 }
        let unit = String(String.UnicodeScalarView(scalars[index...]))
        guard let factor = Self.units.first(where: { $0.name == unit })?.factor else { return nil }
        // Checked arithmetic: a size too large to count is no size (never a trap).
        let (wholeBytes, overflow) = whole.multipliedReportingOverflow(by: factor)
        guard !overflow else { return nil }
        let (total, overflowAgain) = wholeBytes.addingReportingOverflow(fraction * factor / fractionScale)
        guard !overflowAgain else { return nil }
        bytes = total
    }

    private static func digit(_ scalar: Unicode.Scalar) -> Int64? {
        guard scalar.value >= 48, scalar.value <= 57 else { return nil }
        return Int64(scalar.value - 48)
    }

    /// In decimal units, as App Store Connect shows, to one decimal place: "45 MB", "2.1 GB".
    public var description: String {
        for (unit, factor) in [("GB", Int64(1_000_000_000)), ("MB", 1_000_000), ("KB", 1_000)] where bytes >= factor {
            let tenths = (bytes * 10 + factor / 2) / factor
            return tenths % 10 == 0 ? "\(tenths / 10) \(unit)" : "\(tenths / 10).\(tenths % 10) \(unit)"
        }
        return "\(bytes) B"
    }

    public static func < (lhs: ByteSize, rhs: ByteSize) -> Bool { lhs.bytes < rhs.bytes }
}
