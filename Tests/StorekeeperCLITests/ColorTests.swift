import Foundation
import Testing

import StorekeeperCore
import StorekeeperPlatform

/// Colour: only on a terminal (or when forced), never with `NO_COLOR`.
@Suite("Colour")
struct ColorTests {
    static let escape = "\u{1B}"
    static let esc = escape

    /// One warning and one error, so both colours appear.
    static let catalog = validCatalog(minimumOS: "15.0", extra: "features: [coins, coins]\n")

    @Test("`--color always` colours the text output, into a pipe")
    func always() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.catalog)
        let result = try await workspace.run("validate", "--color", "always", "shop.yaml")
        #expect(result.status == 1, "\(result)")
        let esc = Self.esc
        // Bold location, bold-magenta `warning:`, bold message, bold-green caret.
        #expect(result.stdout.hasPrefix(
            "\(esc)[1mshop.yaml:4:15:\(esc)[0m \(esc)[1;35mwarning:\(esc)[0m \(esc)[1mwrite the version in quotes"))
        #expect(result.stdout.contains("\(esc)[1;31merror:\(esc)[0m"))
        #expect(result.stdout.contains("|               \(esc)[1;32m^~~~\(esc)[0m\n"))
        // With the escapes taken out, it is the plain output.
        let plain = try await workspace.run("validate", "--color", "never", "shop.yaml")
        #expect(Self.strippingEscapes(result.stdout) == plain.stdout)
        #expect(!plain.stdout.contains(Self.escape))
    }

    @Test("`--color always` wins over NO_COLOR")
    func alwaysOverridesNoColor() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.catalog)
        let result = try await workspace.run(
            "validate", "--color", "always", "shop.yaml", environment: CLI.environment(["NO_COLOR": "1"]))
        #expect(result.stdout.contains(Self.escape), "\(result)")
    }

    @Test("by default, output into a pipe has no escape codes")
    func defaultIntoPipe() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.catalog)
        let result = try await workspace.run("validate", "shop.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("shop.yaml:4:15: warning: write the version in quotes"))
        #expect(!result.stdout.contains(Self.escape))
        #expect(!result.stderr.contains(Self.escape))
    }

    @Test("`--color auto` with NO_COLOR=1 has no escape codes")
    func autoWithNoColor() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.catalog)
        let result = try await workspace.run(
            "validate", "--color", "auto", "shop.yaml", environment: CLI.environment(["NO_COLOR": "1"]))
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("shop.yaml:4:15: warning:"))
        #expect(!result.stdout.contains(Self.escape))
    }

    @Test("JSON never has escape codes, even with `--color always`")
    func jsonNeverColored() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.catalog)
        let result = try await workspace.run("validate", "--format", "json", "--color", "always", "shop.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(!result.stdout.contains(Self.escape))
        #expect(try JSONSerialization.jsonObject(with: result.stdoutData) is [String: Any])
    }

    @Test("`--color sometimes` is a usage error")
    func badColorValue() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.catalog)
        let result = try await workspace.run("validate", "--color", "sometimes", "shop.yaml")
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("sometimes"))
    }

    /// On a real terminal (a pseudo-terminal), `auto` colours, unless NO_COLOR
    /// is set and not empty or TERM is dumb.
    @Test(
        "on a terminal, `auto` colours unless NO_COLOR or TERM=dumb",
        arguments: [
            ([String: String](), true),
            (["NO_COLOR": "1"], false),
            (["NO_COLOR": "anything"], false),
            (["NO_COLOR": ""], true),
            (["TERM": "dumb"], false),
        ])
    func autoOnTerminal(extra: [String: String], colored: Bool) async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.catalog)
        let terminal = try PseudoTerminal()
        let result = try await CLI.run(
            ["validate", "shop.yaml"], in: workspace.url, environment: CLI.environment(extra),
            standardOutput: terminal.followerHandle)
        let output = terminal.finish()
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 1, "\(result)")
        #expect(output.contains("shop.yaml:4:15:"), "\(output)")
        #expect(output.contains(Self.escape) == colored, "\(output)")
    }

    static func strippingEscapes(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }
}

/// A pseudo-terminal: the child writes to the follower side, and a thread
/// reads everything from the leader side.
final class PseudoTerminal: @unchecked Sendable {
    private let leader: Int32
    private var follower: Int32
    let followerHandle: FileHandle
    private var output = [UInt8]()
    private let done = DispatchSemaphore(value: 0)

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
        leader = PTY.openpt(O_RDWR | O_NOCTTY)
        guard leader >= 0, PTY.grantpt(leader) == 0, PTY.unlockpt(leader) == 0, let name = PTY.ptsname(leader) else {
            throw Failure(description: "cannot open a pseudo-terminal: errno \(errno)")
        }
        follower = open(name, O_RDWR | O_NOCTTY)
        guard follower >= 0 else { throw Failure(description: "cannot open \(String(cString: name))") }
        followerHandle = FileHandle(fileDescriptor: follower, closeOnDealloc: false)
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(leader, $0.baseAddress, $0.count) }
                if count > 0 {
                    output.append(contentsOf: buffer[..<count])
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break  // EIO: every follower descriptor is closed.
                }
            }
            done.signal()
        }
    }

    /// Closes this process's follower descriptor (the child has exited) and
    /// returns everything written, with the terminal's `\r\n` made `\n`.
    func finish() -> String {
        if follower >= 0 { close(follower); follower = -1 }
        _ = done.wait(timeout: .now() + 10)
        close(leader)
        return String(decoding: output, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }
}

/// The pseudo-terminal functions. Glibc's module map leaves them out (they
/// need `_XOPEN_SOURCE`), so on Linux they are looked up at run time.
private enum PTY {
    #if canImport(Darwin)
    static func openpt(_ flags: Int32) -> Int32 { posix_openpt(flags) }
    static func grantpt(_ fd: Int32) -> Int32 { Darwin.grantpt(fd) }
    static func unlockpt(_ fd: Int32) -> Int32 { Darwin.unlockpt(fd) }
    static func ptsname(_ fd: Int32) -> UnsafeMutablePointer<CChar>? { Darwin.ptsname(fd) }
    #else
    private typealias IntFunction = @convention(c) (Int32) -> Int32
    private typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    private static func lookUp<F>(_ name: String, as type: F.Type) -> F? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    static func openpt(_ flags: Int32) -> Int32 { lookUp("posix_openpt", as: IntFunction.self)?(flags) ?? -1 }
    static func grantpt(_ fd: Int32) -> Int32 { lookUp("grantpt", as: IntFunction.self)?(fd) ?? -1 }
    static func unlockpt(_ fd: Int32) -> Int32 { lookUp("unlockpt", as: IntFunction.self)?(fd) ?? -1 }
    static func ptsname(_ fd: Int32) -> UnsafeMutablePointer<CChar>? { lookUp("ptsname", as: NameFunction.self)?(fd) }
    #endif
}
