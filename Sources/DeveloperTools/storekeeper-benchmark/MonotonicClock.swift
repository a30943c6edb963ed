import StorekeeperCore
import StorekeeperPlatform

/// Readings of `CLOCK_MONOTONIC`, a clock that only moves forward and that changes of the wall-clock time do not touch.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary, fixed point in the past.
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        // CLOCK_MONOTONIC always exists: clock_gettime cannot fail with it and a valid pointer.
        _ = clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
