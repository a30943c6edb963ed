/// A price: a decimal with at most two places, kept exactly as whole cents
/// (hundredths) so that no binary floating point ever rounds it.
public struct Price: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The price in hundredths of the currency unit: 299 for "2.99".
    public var cents: Int

    /// Creates a price from hundredths.
    public init(cents: Int) { self.cents = cents }

    /// Parses `2.99`, `0`, `10.5`; nil for anything else (signs, exponents,
    /// three places, thousands separators). At most 1,000,000.00.
    public init?(parsing text: String) {
        var whole = 0
        var fraction = 0
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int(byte - UInt8(ascii: "0"))
                sawDigit = true
                if sawPoint {
                    fractionDigits += 1
                    guard fractionDigits <= 2 else { return nil }
                    fraction = fraction * 10 + digit
                } else {
                    whole = whole * 10 + digit
                    guard whole <= 1_000_000 else { return nil }
                }
            case UInt8(ascii: "."):
                guard !sawPoint, sawDigit else { return nil }
                sawPoint = true
            default:
                return nil
            }
        }
        guard sawDigit, !(sawPoint && fractionDigits == 0) else { return nil }
        if fractionDigits == 1 { fraction *= 10 }
        guard whole < 1_000_000 || (whole == 1_000_000 && fraction == 0) else { return nil }
        cents = whole * 100 + fraction
    }

    /// "2.99", "0.00".
    public var description: String {
        let fraction = cents % 100
        return "\(cents / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    public static func < (lhs: Price, rhs: Price) -> Bool { lhs.cents < rhs.cents }
}
