import StorekeeperSimulatedStore
public import Foundation

/// A span of simulated time: calendar parts (years, months, days) added in
/// UTC, then seconds. `P1M` from January 31 is February 28 (or 29).
///
/// A duration read from a scenario keeps how it was written (`25h`), which
/// the trace and messages echo; two durations of the same parts are equal
/// however they were written.
public struct ScenarioDuration: Sendable, Hashable, CustomStringConvertible {
    /// Whole years.
    public var years: Int
    /// Whole months.
    public var months: Int
    /// Whole days (weeks count 7).
    public var days: Int
    /// Seconds (hours and minutes included).
    public var seconds: Int
    /// How the scenario wrote it (`25h`, `P1M`); nil for a duration made in code.
    public var spelling: String?

    /// Creates a duration.
    public init(years: Int = 0, months: Int = 0, days: Int = 0, seconds: Int = 0, spelling: String? = nil) {
        self.years = years
        self.months = months
        self.days = days
        self.seconds = seconds
        self.spelling = spelling
    }

    /// Equal parts, however written.
    public static func == (lhs: ScenarioDuration, rhs: ScenarioDuration) -> Bool {
        (lhs.years, lhs.months, lhs.days, lhs.seconds) == (rhs.years, rhs.months, rhs.days, rhs.seconds)
    }

    /// Hashes the parts (as `==` compares them).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(years)
        hasher.combine(months)
        hasher.combine(days)
        hasher.combine(seconds)
    }

    /// The date this long after `date`, in the UTC Gregorian calendar.
    public func added(to date: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        var parts = DateComponents()
        parts.year = years
        parts.month = months
        parts.day = days
        let calendarDate = calendar.date(byAdding: parts, to: date) ?? date
        return calendarDate.addingTimeInterval(TimeInterval(seconds))
    }

    /// As the scenario wrote it; for a duration made in code, in the same
    /// forms a scenario takes: one number and unit when one fits (`25h`,
    /// `90m`, `3d`), else ISO 8601 (`P1Y2M3DT4H5M6S`).
    public var description: String {
        if let spelling { return spelling }
        if years == 0, months == 0 {
            if days == 0 {
                for (unit, length) in [("h", 3_600), ("m", 60)] where seconds != 0 && seconds % length == 0 {
                    return "\(seconds / length)\(unit)"
                }
                return "\(seconds)s"
            }
            if seconds == 0 { return "\(days)d" }
        }
        var text = "P"
        if years != 0 { text += "\(years)Y" }
        if months != 0 { text += "\(months)M" }
        if days != 0 { text += "\(days)D" }
        if seconds != 0 {
            text += "T"
            let hours = seconds / 3_600, minutes = seconds % 3_600 / 60, rest = seconds % 60
            if hours != 0 { text += "\(hours)H" }
            if minutes != 0 { text += "\(minutes)M" }
            if rest != 0 { text += "\(rest)S" }
        }
        return text
    }
}
