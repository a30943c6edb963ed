import Foundation
import StorekeeperChildProcess
import StorekeeperJSON

/// Apple's App Store Server Library for Python timing its own
/// `SignedDataVerifier` over the same payloads (time_verifier.py, beside this file).
enum PythonVerifierTiming {
    struct Result {
        var count: Int
        var accepted: Int
        var seconds: Double
        var cpuSeconds: Double
        var rate: Double { Double(count) / seconds }
        /// Verifications per second of the Python process's CPU time.
        var cpuRate: Double { Double(count) / cpuSeconds }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let script: String = {
        let file = #filePath
        return String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)]) + "/time_verifier.py"
    }()

    static func run(payloads: [String], root: [UInt8], bundleID: String) throws -> Result {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("storekeeper-verify-benchmark-\(UUID().uuidString).json")
        let request: JSONValue = [
            "root": .string(Data(root).base64EncodedString()), "bundleId": .string(bundleID), "environment": "Sandbox",
            "jws": .array(payloads.map { .string($0) }),
        ]
        try JSONWriter(indentation: nil).serialize(request).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try ChildProcess(
            "/usr/bin/env", ["python3", script, file.path], standardOutput: .capture(limit: 1 << 20), standardError: .capture(limit: 1 << 20)
        ).run(timeout: .seconds(1_800))
        let output = String(decoding: outcome.standardOutput, as: UTF8.self)
        guard outcome.termination == .exited(0) else {
            throw Failure(description: "time_verifier.py \(outcome.termination): \(output)\(String(decoding: outcome.standardError, as: UTF8.self))"
                + "\nInstall the library: python3 -m pip install app-store-server-library==3.1.2 (or run Scripts/setup)")
        }
        guard case .object(let pairs) = try JSONParser().parse(output) else { throw Failure(description: "time_verifier.py printed \(output)") }
        let members = Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard case .integer(let count)? = members["count"], case .integer(let accepted)? = members["accepted"],
              case .integer(let nanoseconds)? = members["nanoseconds"], nanoseconds > 0,
              case .integer(let cpuNanoseconds)? = members["cpuNanoseconds"], cpuNanoseconds > 0 else {
            throw Failure(description: "time_verifier.py printed \(output)")
        }
        return Result(count: count, accepted: accepted, seconds: Double(nanoseconds) / 1e9, cpuSeconds: Double(cpuNanoseconds) / 1e9)
    }
}
