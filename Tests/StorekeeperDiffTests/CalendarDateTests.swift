import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperDiff
import Testing

/// The diff decides "shorter" with the calendar the queue uses: its dates
/// agree with Foundation's Gregorian calendar in UTC, and a duration that
/// a 30-day month makes look as long is found shorter on a named day.
@Suite struct CalendarDateTests {
    static func utcCalendar() throws -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        return calendar
    }

    @Test(arguments: ["P1M", "P3M", "P1Y", "P1Y1M", "P2W", "P90D", "P1M3D"])
    func endsAgreeWithFoundationOverALeapCycle(text: String) throws {
        let period = try ISOPeriod.parse(text).get()
        let calendar = try Self.utcCalendar()
        let first = CalendarDate(year: 2023, month: 12, day: 1).daysSinceEpoch
        for offset in 0..<1500 {
            let start = CalendarDate(daysSinceEpoch: first + offset)
            let date = Date(timeIntervalSince1970: Double(start.daysSinceEpoch) * 86_400)
            var components = DateComponents()
            components.year = period.years
            components.month = period.months
            components.day = period.weeks * 7 + period.days
            let expected = try #require(calendar.date(byAdding: components, to: date))
            let ends = start.adding(period)
            #expect(Double(ends.daysSinceEpoch) * 86_400 == expected.timeIntervalSince1970, "\(start) + \(text) = \(ends)")
        }
    }

    @Test func aDurationThatEndsEarlierOnSomeDayIsShorterAndTheDayIsNamed() throws {
        let found = try DiffFixtures.diff(old: Self.pass("P3M"), new: Self.pass("P90D"))
        #expect(found.map(\.rule) == ["diff-duration-shortened"])
        #expect(found.first?.message.contains("one bought on 2024-01-01 would end on 2024-03-31 instead of 2024-04-01") == true)
        #expect(try DiffFixtures.diff(old: Self.pass("P1Y"), new: Self.pass("P365D")).map(\.rule) == ["diff-duration-shortened"])
        #expect(try DiffFixtures.diff(old: Self.pass("P3M"), new: Self.pass("P92D")).isEmpty)
        #expect(try DiffFixtures.diff(old: Self.pass("P1Y"), new: Self.pass("P366D")).isEmpty)
    }

    static func pass(_ duration: String) -> String {
        """
        catalog: shop
        app: {bundle-id: com.example.shop}
        features: [extra]
        products:
          - id: com.example.shop.pass
            type: non-renewing-subscription
            reference-name: Pass
            price: "7.99"
            duration: \(duration)
            localizations: {en-US: {title: Pass, description: A season}}
            delivery: {model: built-in, unlocks: [extra]}
            persistence: {strategy: icloud, record: receipt}
            restore: icloud

        """
    }
}
