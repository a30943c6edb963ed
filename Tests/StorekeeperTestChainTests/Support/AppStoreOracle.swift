import Foundation
import StorekeeperChildProcess
import StorekeeperJSON
import StorekeeperSimulatedStore
import StorekeeperTestChain
import StorekeeperTestSupport
import Testing

/// Apple's App Store Server Library for Python (`SignedDataVerifier`, online
/// checks off), run on signed data by `verify_signed.py`: the oracle that
/// says whether a server verifying as Apple does accepts what the test chain
/// signs, and what it decodes.
///
/// A missing `python3` or library fails the test with the command that
/// installs it (Scripts/setup does): the check never passes silently.
enum AppStoreOracle {
    /// What to verify: one call of `verify_and_decode_signed_transaction`,
    /// `verify_and_decode_renewal_info` or `verify_and_decode_notification`.
    struct Request {
        enum Kind: String { case transaction, renewal, notification }

        var kind: Kind = .transaction
        var jws: String
        /// The verifier's one trusted root (DER).
        var root: [UInt8]
        var environment: AppStoreEnvironment = .sandbox
        var bundleID: String = OracleFixtures.bundleID
        var appAppleID: Int?

        var json: JSONValue {
            [
                "kind": .string(kind.rawValue), "jws": .string(jws), "root": .string(Data(root).base64EncodedString()),
                "environment": .string(environment.rawValue), "bundleId": .string(bundleID),
                "appAppleId": appAppleID.map { .integer($0) } ?? .null,
            ]
        }
    }

    /// The verifier's answer.
    enum Verdict: CustomStringConvertible {
        /// Verified: the payload as the library decoded it, and the enum
        /// members it recognized (`type` → `CONSUMABLE`...).
        case accepted(payload: [String: JSONValue], enums: [String: String])
        /// Refused: the library's `VerificationStatus` and the chain of causes.
        case refused(status: String, cause: String)

        var payload: [String: JSONValue]? {
            if case .accepted(let payload, _) = self { payload } else { nil }
        }

        var description: String {
            switch self {
            case .accepted(let payload, let enums): "accepted \(payload) \(enums)"
            case .refused(let status, let cause): "refused \(status): \(cause)"
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let installHint = "Install the oracle: python3 -m pip install app-store-server-library==3.1.2 (or run Scripts/setup)"

    /// The verdict on each request, in order: one Python process for all.
    static func verify(_ requests: [Request]) throws -> [Verdict] {
        let script = "\(PackageRoot.path)/Tests/StorekeeperTestChainTests/verify_signed.py"
        let run = try ScratchFolder.with(prefix: "storekeeper-oracle") { folder in
            let file = folder.appendingPathComponent("requests.json")
            try JSONWriter(indentation: nil).serialize(.array(requests.map(\.json))).write(to: file, atomically: true, encoding: .utf8)
            return try ChildProcess(
                "/usr/bin/env", ["python3", script, file.path],
                standardOutput: .capture(limit: .max), standardError: .capture(limit: .max)
            ).run(timeout: .seconds(600))
        }
        let output = String(decoding: run.standardOutput, as: UTF8.self)
        let errors = String(decoding: run.standardError, as: UTF8.self)
        if run.termination == .exited(3) || run.termination == .exited(127) {
            let message = "\(output)\(errors)\n\(installHint)"
            Issue.record(Comment(rawValue: message))
            throw Failure(description: message)
        }
        guard run.termination == .exited(0) else {
            throw Failure(description: "verify_signed.py \(run.termination):\n\(errors)")
        }
        guard case .array(let results) = try JSONParser().parse(output), results.count == requests.count else {
            throw Failure(description: "verify_signed.py printed no list of \(requests.count) results: \(output)")
        }
        return try results.map(verdict)
    }

    /// The verdict on one request.
    static func verify(_ request: Request) throws -> Verdict {
        try verify([request])[0]
    }

    private static func verdict(_ result: JSONValue) throws -> Verdict {
        let members = result.members
        switch members["accepted"] {
        case .bool(true)?:
            let enums = (members["enums"]?.members ?? [:]).compactMapValues { value -> String? in
                if case .string(let name) = value { name } else { nil }
            }
            return .accepted(payload: members["payload"]?.members ?? [:], enums: enums)
        case .bool(false)?:
            guard case .string(let status)? = members["status"], case .string(let cause)? = members["error"] else { break }
            return .refused(status: status, cause: cause)
        default:
            break
        }
        throw Failure(description: "verify_signed.py printed an unexpected result: \(JSONWriter(indentation: nil).serialize(result))")
    }
}

extension JSONValue {
    /// The value with every object's members sorted by key, at every depth:
    /// what compares two documents regardless of member order.
    var sortedMembers: JSONValue {
        switch self {
        case .object(let members): .object(members.map { (key: $0.key, value: $0.value.sortedMembers) }.sorted { $0.key < $1.key })
        case .array(let items): .array(items.map(\.sortedMembers))
        default: self
        }
    }

    /// An object's members by key (empty for anything else).
    var members: [String: JSONValue] {
        guard case .object(let members) = self else { return [:] }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
