import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StorekeeperChildProcess
import Testing

/// A `storekeeper-server serve` process on a free port of loopback, its log (standard error) in a
/// file, for a test to talk to over HTTP and then stop with SIGTERM.
final class RunningServer {
    let child: RunningChild
    let logPath: String
    private(set) var endpoint = ServerEndpoint(port: 0)

    private init(child: RunningChild, logPath: String) {
        self.child = child
        self.logPath = logPath
    }

    /// Starts `storekeeper-server serve --port 0 ARGUMENTS` and returns at once; see ``waitUntilListening()``.
    static func launch(_ arguments: [String], environment: [String: String], folder: URL, name: String = "server") throws -> RunningServer {
        try #require(FileManager.default.isExecutableFile(atPath: ServerExecutable.path), "no storekeeper-server at \(ServerExecutable.path)")
        let logPath = folder.appendingPathComponent("\(name).log").path
        let child = try ChildProcess(
            ServerExecutable.path, ["serve", "--port", "0", "--host", "127.0.0.1"] + arguments, directory: folder.path,
            environment: environment, standardOutput: .file(folder.appendingPathComponent("\(name).out").path), standardError: .file(logPath)
        ).start()
        return RunningServer(child: child, logPath: logPath)
    }

    /// Launches the server and waits until it listens.
    static func start(_ arguments: [String], environment: [String: String], folder: URL, name: String = "server") async throws -> RunningServer {
        let server = try launch(arguments, environment: environment, folder: folder, name: name)
        try await server.waitUntilListening()
        return server
    }

    /// Waits until the server logs the port it listens on. Throws (with its log) when it ends
    /// first, or has not listened after a minute (a guard against a hang, not a measurement).
    func waitUntilListening() async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let port = Self.listeningPort(in: log) {
                endpoint = ServerEndpoint(port: port)
                return
            }
            if child.hasEnded() {
                let outcome = try child.wait()
                throw StartFailure(description: "storekeeper-server ended (\(outcome.termination)) before listening:\n\(log)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        child.kill()
        throw StartFailure(description: "storekeeper-server did not listen within a minute:\n\(log)")
    }

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The port of the `listening` line, in either log format (`message=listening port=NNNN`,
    /// `"message":"listening",...,"port":"NNNN"`).
    static func listeningPort(in log: String) -> Int? {
        for line in log.split(separator: "\n") where line.contains("message=listening") || line.contains(#""message":"listening""#) {
            for marker in ["port=", #""port":""#] {
                guard let start = line.range(of: marker)?.upperBound else { continue }
                return Int(line[start...].prefix { $0.isNumber })
            }
        }
        return nil
    }

    /// What the server logged so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits for the process to end (killed after a minute: a guard).
    @discardableResult
    func stop() throws -> ChildOutcome {
        child.kill(SIGTERM)
        return try child.wait(timeout: .seconds(60))
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> (status: Int, body: String) {
        try await endpoint.send("GET", path, headers: headers, body: nil)
    }

    func send(_ method: String, _ path: String, headers: [(String, String)] = [], body: String?) async throws -> (status: Int, body: String) {
        try await endpoint.send(method, path, headers: headers, body: body)
    }
}

/// A server's address on loopback, to send requests to from any task.
struct ServerEndpoint: Sendable {
    var port: Int

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// A request (with a JSON body when `body` is given), with the status and body of its answer.
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
