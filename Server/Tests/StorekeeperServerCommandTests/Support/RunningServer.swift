import AsyncHTTPClient
import Foundation
import NIOCore
import StorekeeperChildProcess
import Testing

/// A `storekeeper-server serve` process on a free port of loopback, its log (standard error) in a
/// file, for a test to talk to over HTTP and then stop with SIGTERM.
final class RunningServer {
    let child: RunningChild
    let logPath: String
    let port: Int

    private init(child: RunningChild, logPath: String, port: Int) {
        self.child = child
        self.logPath = logPath
        self.port = port
    }

    /// Starts `storekeeper-server serve --port 0 ARGUMENTS` and waits until it logs the port it
    /// listens on. Throws (with its log) when it ends first, or has not listened after a minute.
    static func start(_ arguments: [String], environment: [String: String], folder: URL, name: String = "server") async throws -> RunningServer {
        try #require(FileManager.default.isExecutableFile(atPath: ServerExecutable.path), "no storekeeper-server at \(ServerExecutable.path)")
        let logPath = folder.appendingPathComponent("\(name).log").path
        let child = try ChildProcess(
            ServerExecutable.path, ["serve", "--port", "0", "--host", "127.0.0.1"] + arguments, directory: folder.path,
            environment: environment, standardOutput: .file(folder.appendingPathComponent("\(name).out").path), standardError: .file(logPath)
        ).start()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let port = listeningPort(in: log) { return RunningServer(child: child, logPath: logPath, port: port) }
            if child.hasEnded() {
                let outcome = try child.wait()
                throw StartFailure(description: "storekeeper-server ended (\(outcome.termination)) before listening:\n\(log)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        child.kill()
        throw StartFailure(description: "storekeeper-server did not listen within a minute:\n\((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")")
    }

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The port of the `listening` line (`... message=listening port=NNNN`).
    static func listeningPort(in log: String) -> Int? {
        for line in log.split(separator: "\n") where line.contains("message=listening") {
            for field in line.split(separator: " ") where field.hasPrefix("port=") {
                return Int(field.dropFirst("port=".count))
            }
        }
        return nil
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// What the server logged so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits for the process to end (killed after a minute: a guard).
    func stop() throws -> ChildOutcome {
        child.kill(SIGTERM)
        return try child.wait(timeout: .seconds(60))
    }

    /// GET `path`, with its status and body.
    func get(_ path: String, headers: [(String, String)] = []) async throws -> (status: Int, body: String) {
        try await send("GET", path, headers: headers, body: nil)
    }

    /// A request with a JSON body, with its status and body.
    func send(_ method: String, _ path: String, headers: [(String, String)] = [], body: String?) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 22)
        return (Int(response.status.code), String(buffer: bytes))
    }
}
