import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperRuntime

/// Why a catalog could not be compiled: located diagnostics, as
/// `storekeeper validate` reports them.
public struct PolicyCompilationError: Error, Sendable, CustomStringConvertible {
    /// The errors (and their notes), in reading order.
    public var diagnostics: [Diagnostic]

    /// Creates the error.
    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// One line per diagnostic: `file:line:column: error: message [rule]`.
    public var description: String {
        diagnostics.map { "\($0.location): \($0.severity): \($0.message) [\($0.rule)]" }.joined(separator: "\n")
    }
}
