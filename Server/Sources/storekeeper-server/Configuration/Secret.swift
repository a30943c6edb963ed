/// A secret read from the configuration: the client token secret, the operator key, the receipt
/// shared secret. Every way of printing it (`description`, `debugDescription`, `dump`, string
/// interpolation) shows `***`; only ``revealed`` gives the value, where it is used.
struct Secret: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The value, for the one place that uses it.
    let revealed: String

    init(_ value: String) { revealed = value }

    var description: String { "***" }
    var debugDescription: String { "***" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
