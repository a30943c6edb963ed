import StorekeeperTooling

/// Ends the process at once with a status. Output is written unbuffered
/// (`write(2)`), so nothing is lost; what `keeping` holds is never freed,
/// which for a large catalog saves the time its teardown would take.
package enum ProcessExit {
    package static func now(_ status: Int32, keeping value: borrowing some Any) -> Never {
        exit(status)
    }
}
