public import Foundation
import StorekeeperCore

/// When a subscription bought at a date ends: an auto-renewable one when
/// the store says (else after one period), a non-renewing one after its
/// duration. Calendar arithmetic in UTC, months clamped to their last day
/// (Jan 31 + P1M = Feb 28/29), as the App Store counts.
///
/// Public because the app's queue and the team's server must end a
/// non-renewing subscription at the same instant: the App Store's payloads
/// carry no `expiresDate` for one, so its term is the catalog's `duration`.
public enum SubscriptionTerm {
    /// When `product`, bought at `purchaseDate`, ends: `storeExpiration` when
    /// the store gave one, else the product's period or duration from the
    /// purchase; nil for products that do not end.
    public static func expiration(of product: ProductPolicy, bought purchaseDate: Date, storeExpiration: Date?) -> Date? {
        switch product.type {
        case .consumable, .nonConsumable:
            return nil
        case .autoRenewableSubscription:
            if let storeExpiration { return storeExpiration }
            guard let period = product.subscription?.period else { return nil }
            return add(period.rawValue, to: purchaseDate)
        case .nonRenewingSubscription:
            if let storeExpiration { return storeExpiration }
            return product.duration.flatMap { add($0, to: purchaseDate) }
        }
    }

    /// Adds an ISO 8601 duration of years, months, weeks and days (`P1Y`,
    /// `P3M`, `P1W`, `P30D`, `P1Y6M`) to a date; nil for anything else.
    public static func add(_ duration: String, to date: Date) -> Date? {
        var years = 0, months = 0, days = 0
        var number = 0
        var sawDigit = false
        var scalars = duration.unicodeScalars.makeIterator()
        guard scalars.next() == "P" else { return nil }
        var sawUnit = false
        while let scalar = scalars.next() {
            if scalar.value >= 0x30, scalar.value <= 0x39 {
                number = number * 10 + Int(scalar.value - 0x30)
                guard number <= 10_000 else { return nil }
                sawDigit = true
                continue
            }
            guard sawDigit else { return nil }
            switch scalar {
            case "Y": years += number
            case "M": months += number
            case "W": days += number * 7
            case "D": days += number
            default: return nil
            }
            number = 0
            sawDigit = false
            sawUnit = true
        }
        guard sawUnit, !sawDigit else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        var components = DateComponents()
        components.year = years
        components.month = months
        components.day = days
        return calendar.date(byAdding: components, to: date)
    }
}
