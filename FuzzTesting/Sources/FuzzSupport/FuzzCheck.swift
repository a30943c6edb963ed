import StorekeeperDiagnostics
import StorekeeperJSON

/// The checks a fuzz target fails on besides crashes: promises one part of
/// the package makes to another (a policy the writer wrote is one the reader
/// reads, a report in JSON is JSON). A failed check stops the process the
/// way a crash does, so libFuzzer keeps the input.
public enum FuzzCheck {
    /// Stops with `message` unless `condition` holds.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        if !condition { fail(message(), file: file, line: line) }
    }

    /// Stops with `message`: libFuzzer saves the input as a crash.
    public static func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("fuzz check failed: \(message)", file: file, line: line)
    }

    /// Checks that `text`, written by one of the package's JSON writers, is
    /// read back by the package's own JSON parser.
    public static func requireJSON(_ text: String, from writer: String, file: StaticString = #fileID, line: UInt = #line) {
        do {
            _ = try JSONParser(maxDepth: 64, maxSize: Int.max).parse(text)
        } catch {
            fail("\(writer) wrote JSON that JSONParser refuses at \(error)", file: file, line: line)
        }
    }
}
