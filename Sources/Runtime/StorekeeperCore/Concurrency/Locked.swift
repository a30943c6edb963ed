package import Foundation

/// A value behind a lock, for the package's own shared state.
///
/// Not `Mutex`: that needs iOS 18 and macOS 15, and the runtime runs on
/// iOS 16 and macOS 13 (Scripts/check-availability keeps it out).
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only under `lock`.
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    /// A lock around `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock. Inlinable: the queue's
    /// inbox takes it on every event, and a call through a closure that is
    /// not specialized costs more than the lock.
    @inlinable
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
