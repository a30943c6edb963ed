/// Where one of a child's output streams goes.
public enum ChildOutput: Sendable, Hashable {
    /// To `/dev/null`.
    case discard
    /// To the file at this path, created (mode 0644) or truncated.
    case file(String)
    /// To a descriptor the caller keeps open and closes (the child writes to a copy of it).
    case descriptor(Int32)
    /// Into memory, at most `limit` bytes, read while the child runs so that it never blocks on a full
    /// pipe. A child that writes more is stopped (SIGKILL): the outcome keeps the first `limit` bytes
    /// and says the limit was exceeded (``ChildOutcome/standardOutputExceededLimit``).
    case capture(limit: Int)
}
