import CYAML

import StorekeeperCore
import StorekeeperPlatform

/// The machine and the moment a benchmark ran, for the report: figures mean little without them.
struct HostDescription: Sendable {
    /// The date and time in UTC, such as `2025-11-22 06:30 UTC`.
    let date: String
    /// The hardware name, as `uname -m` prints it.
    let machine: String
    /// The number of processors online.
    let cores: Int
    /// The version of the libyaml that the scan is linked with.
    let libyamlVersion: String

    /// Describes this machine, now.
    static func current() -> HostDescription {
        HostDescription(
            date: currentDate(), machine: machineName(), cores: sysconf(Int32(_SC_NPROCESSORS_ONLN)),
            libyamlVersion: String(cString: yaml_get_version_string()))
    }

    private static func currentDate() -> String {
        var now = time(nil)
        var parts = tm()
        guard gmtime_r(&now, &parts) != nil else { return "unknown date" }
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(twoDigits(parts.tm_mon + 1))-\(twoDigits(parts.tm_mday)) "
            + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)) UTC"
    }

    private static func machineName() -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "unknown machine" }
        return withUnsafeBytes(of: &names.machine) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
