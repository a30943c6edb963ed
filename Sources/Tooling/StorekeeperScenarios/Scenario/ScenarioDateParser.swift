import StorekeeperSimulatedStore
import Foundation

/// Reads `start`: a UTC date and time written `YYYY-MM-DDTHH:MM:SSZ`, a real
/// day of the Gregorian calendar from 1970 to 9999. Computed by arithmetic,
/// not by a formatter: the result never depends on the machine's calendar,
/// time zone or locale.
enum ScenarioDateParser {
    /// The form, for messages.
    static let form = "YYYY-MM-DDTHH:MM:SSZ, in UTC, such as 2026-01-01T09:00:00Z"

    /// The date, or what is wrong with the text (a clause for a message).
    static func parse(_ text: String) -> Result<Date, DateProblem> {
        let bytes = Array(text.utf8)
        // 2026-01-01T09:00:00Z
        let shape: [UInt8?] = [nil, nil, nil, nil, UInt8(ascii: "-"), nil, nil, UInt8(ascii: "-"), nil, nil, UInt8(ascii: "T"),
                               nil, nil, UInt8(ascii: ":"), nil, nil, UInt8(ascii: ":"), nil, nil, UInt8(ascii: "Z")]
        guard bytes.count == shape.count else {
            if bytes.count == 10 { return .failure(.noTime) }
            if bytes.count > 20, bytes[19] == UInt8(ascii: ".") { return .failure(.fraction) }
            if bytes.count == 19 || (bytes.count > 20 && (bytes[19] == UInt8(ascii: "+") || bytes[19] == UInt8(ascii: "-"))) {
                return .failure(.notUTC)
            }
            return .failure(.malformed)
        }
        for (byte, expected) in zip(bytes, shape) {
            if let expected {
                if byte != expected {
                    return expected == UInt8(ascii: "Z") ? .failure(.notUTC) : .failure(.malformed)
                }
            } else if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                return .failure(.malformed)
            }
        }
        func number(_ range: Range<Int>) -> Int {
            bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        let year = number(0..<4), month = number(5..<7), day = number(8..<10)
        let hour = number(11..<13), minute = number(14..<16), second = number(17..<19)
        guard year >= 1970 else { return .failure(.yearOutOfRange(year)) }
        guard (1...12).contains(month) else { return .failure(.noSuchMonth(month)) }
        let length = daysIn(month: month, year: year)
        guard (1...length).contains(day) else { return .failure(.noSuchDay(day, month: month, year: year, length: length)) }
        guard hour <= 23, minute <= 59, second <= 59 else { return .failure(.noSuchTime) }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return .success(Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second)))
    }

    /// What is wrong with a date.
    enum DateProblem: Error, Hashable {
        case malformed, noTime, fraction, notUTC, noSuchTime
        case yearOutOfRange(Int)
        case noSuchMonth(Int)
        case noSuchDay(Int, month: Int, year: Int, length: Int)

        /// A clause for the message.
        var explanation: String {
            switch self {
            case .malformed: "is not a date and time in the form \(ScenarioDateParser.form)"
            case .noTime: "has no time; write it as \(ScenarioDateParser.form)"
            case .fraction: "has fractions of a second; write whole seconds, as \(ScenarioDateParser.form)"
            case .notUTC: "is not in UTC; convert it and end it with Z, as \(ScenarioDateParser.form)"
            case .noSuchTime: "has no such time of day; hours go from 00 to 23, minutes and seconds from 00 to 59"
            case .yearOutOfRange(let year): "is in the year \(year); the simulated clock starts from 1970 on"
            case .noSuchMonth(let month): "has no month \(month); months go from 01 to 12"
            case .noSuchDay(let day, let month, let year, let length): "has no day \(day) (month \(month) of \(year) has \(length) days)"
            }
        }
    }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
