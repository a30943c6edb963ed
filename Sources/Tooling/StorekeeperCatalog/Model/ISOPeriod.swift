/// A calendar period in ISO 8601 form: `P3M`, `P1Y`, `P2W`, `P1Y6M`.
///
/// Only dates count (years, months, weeks, days): purchases last whole days.
public struct ISOPeriod: Hashable, Sendable, CustomStringConvertible {
    /// Whole years.
    public var years: Int
    /// Whole months.
    public var months: Int
    /// Whole weeks.
    public var weeks: Int
    /// Whole days.
    public var days: Int

    /// Creates a period.
    public init(years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0) {
        self.years = years
        self.months = months
        self.weeks = weeks
        self.days = days
    }

    /// Why a text is not a period the catalog accepts.
    public enum ParseError: Error, Hashable, Sendable {
        /// Not of the form `P` followed by numbers with `Y`, `M`, `W`, `D`.
        case malformed
        /// Has a time part (`T`): purchases last whole days.
        case hasTime
        /// Adds up to nothing.
        case zero
    }

    /// Parses `P3M`, `P1Y2M`, `P10D`.
    public static func parse(_ text: String) -> Result<ISOPeriod, ParseError> {
        var scalars = text.unicodeScalars.makeIterator()
        guard scalars.next() == "P" else { return .failure(.malformed) }
        var period = ISOPeriod()
        var number: Int?
        var order = 0
        var sawUnit = false
        while let scalar = scalars.next() {
            if let digit = scalar.properties.numericType == .decimal ? Int(String(scalar)) : nil, scalar.isASCII {
                number = (number ?? 0) * 10 + digit
                if (number ?? 0) > 10_000 { return .failure(.malformed) }
                continue
            }
            if scalar == "T" { return .failure(.hasTime) }
            guard let value = number else { return .failure(.malformed) }
            let unitOrder: Int
            switch scalar {
            case "Y": unitOrder = 1; period.years = value
            case "M": unitOrder = 2; period.months = value
            case "W": unitOrder = 3; period.weeks = value
            case "D": unitOrder = 4; period.days = value
            default: return .failure(.malformed)
            }
            guard unitOrder > order else { return .failure(.malformed) }
            order = unitOrder
            number = nil
            sawUnit = true
        }
        guard sawUnit, number == nil else { return .failure(.malformed) }
        guard period.approximateDays > 0 else { return .failure(.zero) }
        return .success(period)
    }

    /// The length in days, counting a month as 30 days and a year as 365:
    /// for comparisons and limits, not for calendars.
    public var approximateDays: Int { years * 365 + months * 30 + weeks * 7 + days }

    /// The ISO 8601 text: `P1Y6M`.
    public var description: String {
        var text = "P"
        if years > 0 { text += "\(years)Y" }
        if months > 0 { text += "\(months)M" }
        if weeks > 0 { text += "\(weeks)W" }
        if days > 0 { text += "\(days)D" }
        return text == "P" ? "P0D" : text
    }
}
