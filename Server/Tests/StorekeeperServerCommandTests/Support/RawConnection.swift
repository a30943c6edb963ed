import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection to a server on loopback, spoken byte by byte: what an HTTP client library
/// would not do (stay idle without a request, send a chunked body past the server's limit).
/// Blocking, with deadlines; for tests only.
final class RawConnection {
    private let descriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure(description: "connect() to 127.0.0.1:\(port) failed: errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// Sends `bytes`; false when the server closed the connection first (no SIGPIPE).
    @discardableResult
    func transmit(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Reads until the server closes the connection, `seconds` pass, or what was read so far
    /// satisfies `enough`: what was read, and whether the server closed the connection.
    func readUntilClosed(within seconds: Double, orUntil enough: ([UInt8]) -> Bool = { _ in false }) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Self.now() + seconds
        while true {
            let left = deadline - Self.now()
            guard left > 0 else { return (received, false) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 1) * 1_000))
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (received, true) }
            received += buffer[0..<count]
            if enough(received) { return (received, false) }
        }
    }

    /// Seconds on a monotonic clock. Dispatch's, not `clock_gettime` with a `timespec`: under
    /// MemberImportVisibility, `timespec`'s members are taken for those of a module the test target
    /// loads through Foundation (CoreFoundation or CDispatch), which an import of Glibc does not reach.
    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
