import StorekeeperPlatform

/// Readings of `CLOCK_MONOTONIC`, which only moves forward and which changes of the wall-clock time do not touch.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary, fixed point in the past.
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        // CLOCK_MONOTONIC always exists: clock_gettime cannot fail with it and a valid pointer.
        _ = clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// A duration in whole nanoseconds, none when negative, and a century at most (so that sums never overflow).
    static func nanoseconds(in duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let century: Int64 = 100 * 366 * 86_400
        return UInt64(min(seconds, century)) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
