import Foundation

/// A value behind a lock, for the package's own shared state.
///
/// Not `Mutex`: that needs iOS 18 and macOS 15, and the runtime runs on
/// iOS 16 and macOS 13 (Scripts/check-availability keeps it out).
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
