import Foundation
import StorekeeperJSON
import StorekeeperServerTestSupport
import StorekeeperTestChain
import Testing

/// `storekeeper-server verify`: exit 0 and the payload for valid data, 1 and the reason for a
/// refusal, 2 for a command that cannot run.
@Suite struct VerifyCommandTests {
    let payloads: SignedPayloads

    init() throws { payloads = try SignedPayloads() }

    private func verify(_ extra: [String], root: String) async throws -> CommandResult {
        try await ServerExecutable.run(["verify", "--root", root, "--bundle-id", SignedPayloads.bundleID] + extra)
    }

    @Test func aValidTransactionPrintsItsPayloadAndExitsZero() async throws {
        try await ScratchFolder.with { folder in
            let root = try payloads.writeRoot(in: folder)
            let result = try await verify(["--environment", "sandbox", try payloads.transaction(id: "2000000042")], root: root)
            #expect(result.status == 0, "\(result)")
            let printed = try JSONParser().parse(result.stdout)
            guard case .object(let members) = printed else { Issue.record("not a JSON object: \(result)"); return }
            #expect(members.first { $0.key == "transactionId" }?.value == .string("2000000042"))
            #expect(members.first { $0.key == "bundleId" }?.value == .string(SignedPayloads.bundleID))
        }
    }

    @Test func aPEMRootIsReadAsWellAsDER() async throws {
        try await ScratchFolder.with { folder in
            let root = try payloads.writeRoot(in: folder, pem: true)
            let result = try await verify(["--environment", "sandbox", try payloads.transaction()], root: root)
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test func theKindIsToldFromThePayload() async throws {
        try await ScratchFolder.with { folder in
            let root = try payloads.writeRoot(in: folder)
            let notification = try await verify(["--environment", "sandbox", try payloads.notification()], root: root)
            #expect(notification.status == 0, "\(notification)")
            #expect(notification.stdout.contains("\"notificationType\": \"TEST\""), "\(notification)")
            let renewal = try await verify(["--environment", "sandbox", try payloads.renewalInfo()], root: root)
            #expect(renewal.status == 0, "\(renewal)")
            #expect(renewal.stdout.contains("\"autoRenewStatus\""), "\(renewal)")
        }
    }

    @Test func aKindGivenThatDoesNotFitIsRefused() async throws {
        try await ScratchFolder.with { folder in
            let root = try payloads.writeRoot(in: folder)
            // A notification verified as a transaction has no bundleId of its own at the top.
            let result = try await verify(["--environment", "sandbox", "--kind", "transaction", try payloads.notification()], root: root)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.hasPrefix("refused: wrongBundleID"), "\(result)")
        }
    }

    @Test func thePayloadIsReadFromStandardInput() async throws {
        try await ScratchFolder.with { folder in
            let root = try payloads.writeRoot(in: folder)
            let input = try folder.writing(try payloads.transaction(id: "2000000077") + "\n", to: "payload.jws")
            let result = try await ServerExecutable.run(
                ["verify", "--root", root, "--bundle-id", SignedPayloads.bundleID, "--environment", "sandbox"], standardInput: input)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("\"transactionId\": \"2000000077\""), "\(result)")
        }
    }

    @Test func aForgedPayloadIsRefusedWithItsReason() async throws {
        try await ScratchFolder.with { folder in
            let root = try payloads.writeRoot(in: folder)
            var altered = payloads.transactionPayload()
            altered.quantity = 100
            let forged = try payloads.altered(try payloads.transaction(), payload: altered.json)
            let result = try await verify(["--environment", "sandbox", forged], root: root)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.hasPrefix("refused: invalidSignature (VERIFICATION_FAILURE): "), "\(result)")
        }
    }

    @Test func anotherAppsOrEnvironmentsPayloadIsRefused() async throws {
        try await ScratchFolder.with { folder in
            let root = try payloads.writeRoot(in: folder)
            let otherApp = try await verify(["--environment", "sandbox", try payloads.transaction(bundleID: "com.example.other")], root: root)
            #expect(otherApp.status == 1, "\(otherApp)")
            #expect(otherApp.stdout.hasPrefix("refused: wrongBundleID (INVALID_APP_IDENTIFIER)"), "\(otherApp)")
            let sandboxOnProduction = try await verify(["--environment", "production", "--app-id", "1234", try payloads.transaction()], root: root)
            #expect(sandboxOnProduction.status == 1, "\(sandboxOnProduction)")
            #expect(sandboxOnProduction.stdout.hasPrefix("refused: wrongEnvironment (INVALID_ENVIRONMENT)"), "\(sandboxOnProduction)")
        }
    }

    @Test func apple_sRootIsTheDefaultAndRefusesTheTestChain() async throws {
        let result = try await ServerExecutable.run(
            ["verify", "--bundle-id", SignedPayloads.bundleID, "--environment", "sandbox", try payloads.transaction()])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasPrefix("refused: untrustedChain"), "\(result)")
    }

    @Test func notAJWSIsRefusedNotAUsageError() async throws {
        let result = try await ServerExecutable.run(["verify", "--bundle-id", SignedPayloads.bundleID, "--environment", "sandbox", "not-a-jws"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasPrefix("refused: malformedJWS"), "\(result)")
    }

    @Test(arguments: [
        (["--environment", "sandbox", "x.y.z"], "--bundle-id"),
        (["--bundle-id", "com.example.game", "x.y.z"], "--environment"),
        (["--bundle-id", "com.example.game", "--environment", "staging", "x.y.z"], "--environment 'staging' is not an environment; write sandbox or production"),
        (["--bundle-id", "com.example.game", "--environment", "production", "x.y.z"], "--environment production needs --app-id"),
        (["--bundle-id", "com.example.game", "--environment", "sandbox", "--kind", "receipt", "x.y.z"], "--kind"),
        (["--bundle-id", "com.example.game", "--environment", "sandbox", "--root", "/nonexistent/root.der", "x.y.z"], "--root /nonexistent/root.der cannot be read"),
        (["--bundle-id", "com.example.game", "--environment", "sandbox", "--app-id", "twelve", "x.y.z"], "--app-id"),
    ])
    func usageErrorsExitTwoNamingTheFlag(arguments: [String], expected: String) async throws {
        let result = try await ServerExecutable.run(["verify"] + arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(expected), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test func aPayloadOfNoKnownKindAsksForKind() async throws {
        try await ScratchFolder.with { folder in
            let root = try payloads.writeRoot(in: folder)
            let unknown = try payloads.signer.sign(["signedDate": 1_767_225_600_000])
            let result = try await verify(["--environment", "sandbox", unknown], root: root)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("--kind"), "\(result)")
        }
    }
}
