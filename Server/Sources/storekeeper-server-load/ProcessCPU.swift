import Foundation

/// CPU time of a process (user and system), read from Linux's /proc/PID/stat: so that a run on a
/// machine shared with other work can say what the server itself cost.
enum ProcessCPU {
    static func seconds(of processID: pid_t) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8),
              let afterName = text.range(of: ") ")?.upperBound else { return nil }
        // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[afterName...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// This process's own CPU time.
    static func own() -> Double? { seconds(of: getpid()) }
}
