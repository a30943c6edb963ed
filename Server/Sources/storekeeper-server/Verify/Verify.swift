import ArgumentParser
import Foundation
import StorekeeperContract
import StorekeeperJSON
import StorekeeperVerification

/// `storekeeper-server verify`: checks one signed payload with exactly the server's verifier
/// (`SignedDataVerifier`) and prints the decoded payload, or why it was refused.
struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify App Store signed data (a transaction, renewal info or a notification) as the server does.",
        discussion: """
            The payload is a JWS in compact form (header.payload.signature), given as the argument or \
            on standard input. It is verified with the server's own verifier: the x5c chain to the \
            trusted roots at the payload's signedDate, Apple's marker OIDs, the ES256 signature, then \
            the bundle id, the environment and (for notifications in production) the app id.

            Prints the payload as JSON when it is valid (exit status 0); prints "refused:", the \
            reason, Apple's status for it and what failed when it is not (exit status 1). Exit status \
            2 when the command could not run (a usage error, an unreadable root).
            """
    )

    @Option(name: .customLong("root"), help: ArgumentHelp("A trusted root certificate (DER or PEM); repeatable. Default: Apple Root CA - G3.", valueName: "file"))
    var roots: [String] = []

    @Option(name: .customLong("bundle-id"), help: "The app's bundle id, which the payload must carry.")
    var bundleID: String

    @Option(help: ArgumentHelp("The environment accepted: sandbox or production.", valueName: "environment"))
    var environment: String

    @Option(name: .customLong("app-id"), help: ArgumentHelp("The app's App Store id (required for production).", valueName: "id"))
    var appID: Int64?

    @Option(help: ArgumentHelp("transaction, renewal-info or notification. Default: told from the payload's members.", valueName: "kind"))
    var kind: PayloadKind?

    @Argument(help: ArgumentHelp("The signed payload; read from standard input when absent or '-'.", valueName: "payload"))
    var payload: String?

    func run() async throws {
        let environment = try Self.environment(self.environment)
        let roots = try TrustedRoots.load(roots, origin: "--root")
        let verifier: SignedDataVerifier
        do {
            verifier = try SignedDataVerifier(trustedRoots: roots, bundleID: bundleID, environment: environment, appAppleID: appID)
        } catch {
            if environment == .production, appID == nil {
                throw UsageError("--environment production needs --app-id, the app's App Store id: production notifications are checked against it")
            }
            throw UsageError("--root: \(error.message)")
        }
        let jws = try readPayload()
        let kind: PayloadKind
        if let chosen = self.kind {
            kind = chosen
        } else {
            switch PayloadKind.detect(in: jws) {
            case .kind(let detected): kind = detected
            case .unreadable: kind = .transaction
            case .unknown:
                throw UsageError(
                    "the payload has none of notificationType, transactionId, autoRenewStatus or autoRenewProductId; say what it is with --kind transaction, renewal-info or notification")
            }
        }
        do {
            switch kind {
            case .transaction: _ = try await verifier.verifyTransaction(jws)
            case .renewalInfo: _ = try await verifier.verifyRenewalInfo(jws)
            case .notification: _ = try await verifier.verifyNotification(jws)
            }
        } catch {
            StandardStreams.writeOutput("refused: \(error.reason.rawValue) (\(error.status.rawValue)): \(error.message)\n")
            throw ExitCode(1)
        }
        // Verified: its payload segment is the JSON the verifier read.
        guard let bytes = JWSPayload.peek(jws), let value = try? JSONParser().parse(bytes) else {
            throw UsageError("the payload was verified but could not be decoded again; report this")
        }
        StandardStreams.writeOutput(JSONWriter(indentation: 2).serialize(value) + "\n")
    }

    private static func environment(_ name: String) throws(UsageError) -> SignedDataVerifier.Environment {
        switch name.lowercased() {
        case "production": .production
        case "sandbox": .sandbox
        default: throw UsageError("--environment '\(name)' is not an environment; write sandbox or production")
        }
    }

    /// The argument, or standard input (at most a little more than the verifier accepts: a longer
    /// payload is refused by the verifier for its size, not read whole).
    private func readPayload() throws(UsageError) -> String {
        var text: String
        if let payload, payload != "-" {
            text = payload
        } else {
            guard isatty(0) == 0 else {
                throw UsageError("no payload: give it as the argument or on standard input (storekeeper-server verify ... < payload.jws)")
            }
            let data = (try? FileHandle.standardInput.read(upToCount: SignedDataVerifier.maximumSize + 4096)) ?? nil
            text = String(decoding: data ?? Data(), as: UTF8.self)
        }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw UsageError("the payload is empty; give the JWS (header.payload.signature)") }
        return text
    }
}
