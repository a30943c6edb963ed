import StorekeeperCatalog
import StorekeeperCore

/// A day of the Gregorian calendar in UTC, with the arithmetic the queue uses
/// for a pass's end (docs/queue.md: Foundation's Gregorian calendar in UTC), so a check
/// can compare two durations day by day without Foundation.
struct CalendarDate: Comparable, Sendable, CustomStringConvertible {
    let year: Int
    let month: Int
    let day: Int

    /// The day `days` days after 1970-01-01 (civil-from-days, proleptic Gregorian).
    init(daysSinceEpoch days: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (days-from-civil).
    var daysSinceEpoch: Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date a period after this one, as Foundation's Gregorian calendar adds
    /// it: years, then months, each clamping the day to the month's last
    /// (31 January + P1M = 28 or 29 February), then weeks and days.
    func adding(_ period: ISOPeriod) -> CalendarDate {
        let afterYears = addingMonths(period.years * 12)
        let afterMonths = afterYears.addingMonths(period.months)
        return CalendarDate(daysSinceEpoch: afterMonths.daysSinceEpoch + period.weeks * 7 + period.days)
    }

    private func addingMonths(_ count: Int) -> CalendarDate {
        let months = year * 12 + (month - 1) + count
        let newYear = months >= 0 ? months / 12 : (months - 11) / 12
        let newMonth = months - newYear * 12 + 1
        return CalendarDate(year: newYear, month: newMonth, day: min(day, Self.length(ofMonth: newMonth, in: newYear)))
    }

    static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    /// `2024-01-31`.
    var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The first start day, over a whole leap cycle of start days (1461, from
    /// 1 January 2024), on which a pass of `new` ends before one of `old`:
    /// nil when `new` never ends earlier.
    static func firstStartEndingEarlier(old: ISOPeriod, new: ISOPeriod) -> CalendarDate? {
        let first = CalendarDate(year: 2024, month: 1, day: 1).daysSinceEpoch
        for offset in 0..<1461 {
            let start = CalendarDate(daysSinceEpoch: first + offset)
            if start.adding(new) < start.adding(old) { return start }
        }
        return nil
    }
}
