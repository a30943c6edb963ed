import Foundation
import StorekeeperCore
import StorekeeperJSON
import StorekeeperServer
import StorekeeperServerTestSupport
import StorekeeperSimulatedStore
import StorekeeperTestChain
import Testing

/// Two `storekeeper-server` processes on one PostgreSQL database, as several instances are run to
/// outgrow one machine: the same signed transaction, the same record, and then the same App Store
/// notification (its refund) sent many times to both at once have one effect on the ledger, and no
/// caller gets an error a retry would not fix.
@Suite struct TwoProcessesTests {
    static let tokenSecret = "client-token-secret-for-two-processes-0123456789"
    static let operatorKey = "operator-key-for-two-processes-0123456789abcdef"
    /// Requests of each kind, split between the two processes, all in flight at once.
    static let copies = 24

    @Test(.enabled(if: TestBackend.available.contains(.postgres), "PostgreSQL's programs are not on this machine"))
    func theSameTransactionRecordAndNotificationSentToBothHaveOneEffect() async throws {
        let url = try TestPostgres.url()
        let payloads = try SignedPayloads()
        let schema = "two_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await ScratchFolder.with { folder in
            let root = try payloads.writeRoot(in: folder)
            let arguments = [
                "--policy", RepositoryFiles.dailyPlanetCatalog, "--database", url, "--database-schema", schema, "--root", root,
                "--environment", "sandbox",
            ]
            let environment = ServerExecutable.environment([
                "STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": Self.tokenSecret, "STOREKEEPER_SERVER_OPERATOR_KEY": Self.operatorKey,
            ])
            // Launched together: both run the migrations at once.
            let servers = [
                try RunningServer.launch(arguments, environment: environment, folder: folder, name: "first"),
                try RunningServer.launch(arguments, environment: environment, folder: folder, name: "second"),
            ]
            defer { for server in servers { _ = try? server.stop() } }
            for server in servers { try await server.waitUntilListening() }
            let endpoints = servers.map(\.endpoint)

            let user = "reader-\(UUID().uuidString.prefix(8))"
            let token = try ClientToken.issue(user: user, expiresAt: Date().addingTimeInterval(3_600), secret: ClientTokenSecret(Self.tokenSecret))
            let bought = SignedPayloads.signedDate
            let transaction = try payloads.signer.sign(TransactionPayload(
                transactionID: "3000000001", bundleID: "com.example.dailyplanet", productID: "com.example.dailyplanet.gifts.10",
                purchaseDate: bought, type: .consumable, appAccountToken: AppAccountToken.derive(fromUser: user), signedDate: bought,
                environment: .sandbox
            ).json)
            let transactionBody = JSONWriter(indentation: nil).serialize(["signedTransaction": .string(transaction)])
            let recordBody = JSONWriter(indentation: nil).serialize([
                "product": "com.example.dailyplanet.gifts.10", "transaction": "3000000001", "strategy": "server", "kind": "transaction",
                "quantity": 1, "purchaseDate": 1_767_225_600,
            ])
            let authorization = [("Authorization", "Bearer \(token)")]

            let statuses = try await withThrowingTaskGroup(of: (String, Int, String).self) { group in
                for index in 0..<Self.copies {
                    let server = endpoints[index % 2]
                    group.addTask {
                        let answer = try await server.send("POST", "/v1/transactions", headers: authorization, body: transactionBody)
                        return ("transaction", answer.status, answer.body)
                    }
                    group.addTask {
                        let answer = try await server.send("PUT", "/v1/records/3000000001", headers: authorization, body: recordBody)
                        return ("record", answer.status, answer.body)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let logs = servers.map(\.log).joined(separator: "\n----\n")
            for (what, status, body) in statuses {
                // 503 asks the caller to retry (a serialization failure tried too often); anything else is a failure.
                #expect([200, 201, 503].contains(status), "\(what): \(status) \(body)\n\(logs)")
            }
            let transactionsAccepted = statuses.filter { $0.0 == "transaction" && $0.1 == 200 }.count
            #expect(transactionsAccepted > 0, "\(statuses)")
            let created = statuses.filter { $0.0 == "record" && $0.1 == 201 }.count
            let recordsRetried = statuses.filter { $0.0 == "record" && $0.1 == 503 }.count
            #expect(created == 1 || (created == 0 && recordsRetried > 0), "records created \(created) times: \(statuses)")

            // The ledger, through the operator route of either process: one transaction, one grant, one record.
            let answer = try await servers[1].get("/v1/operator/users/\(user)", headers: [("Authorization", "Bearer \(Self.operatorKey)")])
            #expect(answer.status == 200, "\(answer.body)")
            guard case .object(let account) = try JSONParser().parse(answer.body) else { Issue.record("not an object: \(answer.body)"); return }
            func member(_ name: String) -> JSONValue? { account.first { $0.key == name }?.value }
            // Balances are per App Store environment (`{"Sandbox": {...}}`): these purchases are Sandbox's.
            guard case .array(let transactions)? = member("transactions"), case .array(let records)? = member("records"),
                  case .object(let environments)? = member("balances"),
                  case .object(let balances)? = environments.first(where: { $0.key == "Sandbox" })?.value
            else { Issue.record("not the operator's user object: \(answer.body)"); return }
            #expect(transactions.count == 1, "\(answer.body)")
            #expect(records.count == 1, "\(answer.body)")
            #expect(balances.first { $0.key == "gift-articles" }?.value == .integer(10), "granted more than once: \(answer.body)")

            // A second purchase, so that a refund applied twice would show (20 less 10 twice is 0, not 10).
            let second = try payloads.signer.sign(TransactionPayload(
                transactionID: "3000000002", bundleID: "com.example.dailyplanet", productID: "com.example.dailyplanet.gifts.10",
                purchaseDate: bought, type: .consumable, appAccountToken: AppAccountToken.derive(fromUser: user), signedDate: bought,
                environment: .sandbox
            ).json)
            let secondAnswer = try await endpoints[0].send(
                "POST", "/v1/transactions", headers: authorization, body: JSONWriter(indentation: nil).serialize(["signedTransaction": .string(second)]))
            #expect(secondAnswer.status == 200, "\(secondAnswer.body)")

            // The App Store's notification of the first one's refund, retried to both at once: taken back once.
            let refunded = bought.addingTimeInterval(60)
            let refund = try payloads.signer.sign(NotificationPayload(
                notificationType: .refund, notificationUUID: UUID(), bundleID: "com.example.dailyplanet", environment: .sandbox,
                signedTransactionInfo: try payloads.signer.sign(TransactionPayload(
                    transactionID: "3000000001", bundleID: "com.example.dailyplanet", productID: "com.example.dailyplanet.gifts.10",
                    purchaseDate: bought, type: .consumable, appAccountToken: AppAccountToken.derive(fromUser: user), signedDate: refunded,
                    revocationReason: .otherReason, revocationDate: refunded, environment: .sandbox
                ).json),
                signedDate: refunded
            ).json)
            let notificationBody = JSONWriter(indentation: nil).serialize(["signedPayload": .string(refund)])
            let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in 0..<Self.copies {
                    let server = endpoints[index % 2]
                    group.addTask {
                        let answer = try await server.send("POST", "/v1/notifications/sandbox", headers: [], body: notificationBody)
                        return (answer.status, answer.body)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for (status, body) in answers { #expect([200, 503].contains(status), "notification: \(status) \(body)") }
            #expect(answers.contains { $0.0 == 200 }, "\(answers)")
            let after = try await servers[0].get("/v1/operator/users/\(user)", headers: [("Authorization", "Bearer \(Self.operatorKey)")])
            guard case .object(let afterAccount) = try JSONParser().parse(after.body),
                  case .object(let afterEnvironments)? = afterAccount.first(where: { $0.key == "balances" })?.value,
                  case .object(let afterBalances)? = afterEnvironments.first(where: { $0.key == "Sandbox" })?.value
            else { Issue.record("not the operator's user object: \(after.body)"); return }
            #expect(afterBalances.first { $0.key == "gift-articles" }?.value == .integer(10), "taken back once: \(after.body)")
            let notifications = try await servers[0].get("/v1/operator/notifications", headers: [("Authorization", "Bearer \(Self.operatorKey)")])
            #expect(notifications.body.components(separatedBy: #""notificationUUID""#).count == 2, "stored once: \(notifications.body)")
        }
    }
}
