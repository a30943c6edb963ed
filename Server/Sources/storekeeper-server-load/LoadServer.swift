import Foundation
import StorekeeperChildProcess

/// The `storekeeper-server serve` process under load: the daily-planet catalog, the test chain's
/// root, sandbox, a free port on loopback, warnings only in its log.
final class LoadServer {
    private let child: RunningChild
    private let logPath: String
    private var outcome: ChildOutcome?

    init(executable: String, folder: URL, root: String, database: String, connections: Int, tokenSecret: String) throws {
        logPath = folder.appendingPathComponent("server.log").path
        let catalog = Self.repositoryRoot + "/Catalogs/daily-planet/catalog.yaml"
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STOREKEEPER_SERVER_") }
        environment["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET"] = tokenSecret
        // In the environment, not on the command line, where `ps` would show its password.
        environment["STOREKEEPER_SERVER_DATABASE"] = database
        var arguments = [
            "serve", "--policy", catalog, "--root", root, "--environment", "sandbox", "--host", "127.0.0.1", "--port", "0",
            "--log-level", "notice",
        ]
        if database.hasPrefix("postgres") {
            // A schema of its own for each run: the same purchases again would find them kept, which is less work.
            let schema = "load_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
            arguments += ["--database-connections", String(connections), "--database-schema", schema]
        }
        child = try ChildProcess(
            executable, arguments, directory: folder.path, environment: environment, standardOutput: .discard, standardError: .file(logPath)
        ).start()
    }

    /// The port, once the server logs it (a minute at most).
    func waitUntilListening() async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            for line in log.split(separator: "\n") where line.contains("message=listening") {
                if let field = line.split(separator: " ").first(where: { $0.hasPrefix("port=") }), let port = Int(field.dropFirst(5)) { return port }
            }
            if child.hasEnded() { throw LoadFailure("the server ended before listening:\n\(log)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw LoadFailure("the server did not listen within a minute")
    }

    /// The server's CPU time so far (user and system), from /proc; nil where there is none.
    func cpuSeconds() -> Double? { ProcessCPU.seconds(of: child.processID) }

    /// SIGTERM, then waits (SIGKILL after a minute).
    @discardableResult
    func stop() -> String {
        if outcome == nil {
            child.kill(SIGTERM)
            outcome = try? child.wait(timeout: .seconds(60))
        }
        return outcome.map { "\($0.termination)" } ?? "could not be waited for"
    }

    /// The database without its password, for the report.
    static func redacted(_ database: String) -> String {
        guard let scheme = database.range(of: "://"), let at = database.lastIndex(of: "@"),
              let colon = database[scheme.upperBound..<at].firstIndex(of: ":") else { return database }
        return String(database[...colon]) + "***" + String(database[at...])
    }

    /// Four levels above this file: Server/Sources/storekeeper-server-load/.
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()
}

struct LoadFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
