import Foundation
import StorekeeperChildProcess

/// The PostgreSQL server the suite runs against: STOREKEEPER_TEST_POSTGRES_URL when set (`Scripts/test`
/// sets it, starting a cluster it stops at the end, and so does CI), else, for a `swift test` run by hand,
/// a private cluster started with the repository's Scripts/postgres (left running for the next run;
/// `Scripts/postgres stop` stops it).
public enum TestPostgres {
    enum Server: Sendable {
        case url(String)
        /// PostgreSQL's programs are not on this machine: the suite skips PostgreSQL, loudly.
        case missing(String)
        /// Scripts/postgres failed otherwise: the PostgreSQL tests fail with its output.
        case failed(String)
    }

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    static let server: Server = {
        if let url = ProcessInfo.processInfo.environment["STOREKEEPER_TEST_POSTGRES_URL"], !url.isEmpty { return .url(url) }
        let root = repositoryRoot
        let script = root + "/Scripts/postgres"
        do {
            let outcome = try ChildProcess(
                script, ["start"], directory: root, standardOutput: .capture(limit: 1 << 16), standardError: .capture(limit: 1 << 16)
            ).run(timeout: .seconds(300))
            let output = String(decoding: outcome.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let errors = String(decoding: outcome.standardError, as: UTF8.self)
            guard outcome.termination == .exited(0), let url = output.split(separator: "\n").last.map(String.init), url.hasPrefix("postgres://")
            else {
                if errors.contains("were not found") { return .missing(errors) }
                return .failed("\(script) start failed (\(outcome.termination)): \(errors)")
            }
            return .url(url)
        } catch {
            return .failed("\(script) could not be run: \(error)")
        }
    }()

    public static func url() throws -> String {
        switch server {
        case .url(let url): return url
        case .missing(let why), .failed(let why): throw Unavailable(description: "PostgreSQL is not available: \(why)")
        }
    }

    /// Five levels above this file: Server/Sources/Testing/StorekeeperServerTestSupport/.
    static let repositoryRoot: String = {
        var path = #filePath
        for _ in 0..<5 {
            guard let slash = path.lastIndex(of: "/") else { return "." }
            path = String(path[..<slash])
        }
        return path
    }()
}
