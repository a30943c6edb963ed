package import Foundation

/// How the trace writes a simulated time: `2026-01-01T00:00:00Z`, in UTC,
/// whatever the machine's time zone (traces are compared as text).
package enum TraceDate {
    /// The date in ISO 8601, UTC, to the second.
    package static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
