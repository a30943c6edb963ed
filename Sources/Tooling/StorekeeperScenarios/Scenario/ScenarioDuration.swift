import StorekeeperSimulatedStore
import Foundation

/// A span of simulated time: calendar parts (years, months, days) added in
/// UTC, then seconds. `P1M` from January 31 is February 28 (or 29).
public struct ScenarioDuration: Sendable, Hashable, CustomStringConvertible {
    /// Whole years.
    public var years: Int
    /// Whole months.
    public var months: Int
    /// Whole days (weeks count 7).
    public var days: Int
    /// Seconds (hours and minutes included).
    public var seconds: Int

    /// Creates a duration.
    public init(years: Int = 0, months: Int = 0, days: Int = 0, seconds: Int = 0) {
        self.years = years
        self.months = months
        self.days = days
        self.seconds = seconds
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

    /// ISO 8601 (`P1Y2M3DT4S`).
    public var description: String {
        var text = "P"
        if years != 0 { text += "\(years)Y" }
        if months != 0 { text += "\(months)M" }
        if days != 0 { text += "\(days)D" }
        if seconds != 0 || text == "P" { text += "T\(seconds)S" }
        return text
    }
}
