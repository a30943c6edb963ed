import Foundation
import StorekeeperChildProcess
import StorekeeperJSON
import Testing

/// Apple's App Store Server Library for Python (`SignedDataVerifier`, online
/// checks off), run by the main package's `verify_signed.py` (shared with
/// StorekeeperTestChainTests): the oracle the verifier's decisions are compared with.
/// A missing `python3` or library fails the test with the command that installs it.
enum PythonOracle {
    struct Request {
        enum Kind: String { case transaction, renewal, notification }
        var kind: Kind
        var jws: String
        var root: [UInt8]
        var environment: String
        var bundleID: String
        var appAppleID: Int64?

        var json: JSONValue {
            [
                "kind": .string(kind.rawValue), "jws": .string(jws), "root": .string(Data(root).base64EncodedString()),
                "environment": .string(environment), "bundleId": .string(bundleID),
                "appAppleId": appAppleID.map { .integer(Int($0)) } ?? .null,
            ]
        }
    }

    /// The library's decision: nil when it accepted, else its `VerificationStatus` name.
    struct Verdict: CustomStringConvertible {
        var status: String?
        var detail: String
        var description: String { status.map { "refused \($0): \(detail)" } ?? "accepted" }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    static let script = "\(RepositoryRoot.path)/Tests/StorekeeperTestChainTests/verify_signed.py"
    static let installHint = "Install the oracle: python3 -m pip install app-store-server-library==3.1.2 (or run Scripts/setup)"

    /// The verdict on each request, in order, from one Python process.
    static func verify(_ requests: [Request]) throws -> [Verdict] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("storekeeper-verification-oracle-\(UUID().uuidString).json")
        try JSONWriter(indentation: nil).serialize(.array(requests.map(\.json))).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try ChildProcess(
            "/usr/bin/env", ["python3", script, file.path], standardOutput: .capture(limit: .max), standardError: .capture(limit: .max)
        ).run(timeout: .seconds(600))
        let output = String(decoding: run.standardOutput, as: UTF8.self)
        let errors = String(decoding: run.standardError, as: UTF8.self)
        if run.termination == .exited(3) || run.termination == .exited(127) {
            let message = "\(output)\(errors)\n\(installHint)"
            Issue.record(Comment(rawValue: message))
            throw Failure(description: message)
        }
        guard run.termination == .exited(0) else { throw Failure(description: "verify_signed.py \(run.termination):\n\(errors)") }
        guard case .array(let results) = try JSONParser().parse(output), results.count == requests.count else {
            throw Failure(description: "verify_signed.py printed no list of \(requests.count) results: \(output)")
        }
        return try results.map { result in
            guard case .object(let pairs) = result else { throw Failure(description: "not an object: \(result)") }
            let members = Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            switch (members["accepted"], members["status"], members["error"]) {
            case (.bool(true)?, _, _): return Verdict(status: nil, detail: "")
            case (.bool(false)?, .string(let status)?, .string(let error)?): return Verdict(status: status, detail: error)
            default: throw Failure(description: "unexpected result: \(JSONWriter(indentation: nil).serialize(result))")
            }
        }
    }
}
