/// How a child process ended.
public enum ChildTermination: Sendable, Hashable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// The signal with this number ended it.
    case signalled(Int32)

    /// Decodes a status from `wait4`: the `WIFEXITED` family are C macros that Swift does not import.
    init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// The status as a shell reports it: the exit status, or 128 plus the signal's number.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let status): status
        case .signalled(let signal): 128 + signal
        }
    }

    /// How it ended, for a sentence: "exited with status 1", "was killed by signal 9".
    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was killed by signal \(signal)"
        }
    }
}
