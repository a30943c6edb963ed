import Foundation
import StorekeeperCore
import StorekeeperPlatform
import StorekeeperRuntime
import StorekeeperSimulatedStore

/// A small HTTP/1.1 server on 127.0.0.1, for the transport's tests: real
/// sockets, real HTTP, in front of ``SimulatedServer`` (the contract's one
/// in-memory implementation), with faults a network has.
///
/// One connection at a time, `Content-Length` bodies, `Connection: close`
/// after every answer. It runs on a thread of its own (blocking sockets must
/// not hold the concurrency pool's few threads), polling every 50 ms so that
/// ``stop()`` ends it; every socket read and wait is bounded, so a test
/// never hangs on it.
final class LoopbackServer: @unchecked Sendable {
    // @unchecked: `listener` and `port` are set once in init; the rest is behind `Locked` or a semaphore.

    /// What goes wrong with the next request.
    enum Fault: Sendable {
        /// The head and only this many bytes of the body, then the connection is closed.
        case dropAfter(bytes: Int)
        /// No answer: the connection is held until the client gives up (at most 10 s).
        case stall
    }

    let server: SimulatedServer
    let port: Int
    private let listener: Int32
    private let faults = Locked<[Fault]>([])
    private let stopping = Locked(false)
    private let finished = DispatchSemaphore(value: 0)

    /// The URL to give the transport.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Listens on 127.0.0.1, on a port the system chooses, and serves `server`
    /// until ``stop()``, which every test calls (the thread holds the server).
    init(server: SimulatedServer) throws {
        self.server = server
        #if canImport(Glibc) || canImport(Musl)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let socketFD = socket(AF_INET, stream, 0)
        guard socketFD >= 0 else { throw LoopbackError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketFD, 8) == 0 else {
            close(socketFD)
            throw LoopbackError("bind or listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        listener = socketFD
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in
            serve()
            finished.signal()
        }
        thread.name = "LoopbackServer"
        thread.start()
    }

    /// Makes the next request go wrong as `fault` says.
    func inject(_ fault: Fault) {
        faults.withLock { $0.append(fault) }
    }

    /// Stops serving and waits for the thread to end (at most one poll).
    func stop() {
        let first = stopping.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        finished.wait()
        close(listener)
    }

    // MARK: - Serving (on the server's thread)

    private func serve() {
        while !stopping.withLock({ $0 }) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            handle(connection)
            close(connection)
        }
    }

    private func handle(_ connection: Int32) {
        guard let request = readRequest(connection) else { return }
        let fault = faults.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if case .stall = fault {
            waitForClose(connection)
            return
        }
        let response = server.respond(to: request)
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) where name.lowercased() != "content-length" {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        var bytes = Array(head.utf8)
        if case .dropAfter(let count) = fault {
            bytes += response.body.prefix(count)
        } else {
            bytes += response.body
        }
        write(bytes, to: connection)
    }

    /// The request's head and `Content-Length` body, or `nil` when the
    /// client sent something else or nothing in time.
    private func readRequest(_ connection: Int32) -> ServerRequest? {
        var buffer: [UInt8] = []
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            guard buffer.count < 64 << 10, let chunk = read(connection) else { return nil }
            buffer += chunk
            headEnd = buffer.firstRange(of: separator)?.upperBound
        }
        guard let headEnd, let head = String(bytes: buffer[..<(headEnd - 4)], encoding: .utf8) else { return nil }
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers.first { $0.key.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        var body = Array(buffer[headEnd...])
        while body.count < length {
            guard let chunk = read(connection) else { return nil }
            body += chunk
        }
        return ServerRequest(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: Array(body.prefix(length)))
    }

    private func read(_ connection: Int32) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(chunk.prefix(count)) : nil
    }

    private func write(_ bytes: [UInt8], to connection: Int32) {
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// Holds the connection until the client closes it, at most 10 s.
    private func waitForClose(_ connection: Int32) {
        for _ in 0..<200 where !stopping.withLock({ $0 }) {
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 50) > 0 {
                var byte: UInt8 = 0
                if recv(connection, &byte, 1, 0) <= 0 { return }
            }
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 206: "Partial Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 416: "Range Not Satisfiable"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

/// The loopback server could not start.
struct LoopbackError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
