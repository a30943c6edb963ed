import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// SQL in every field a client sends (its user id, a signed transaction's ids, a record's members, a spend's key and
/// balance) is stored as data.
@Suite struct InjectionTests {
    static let hostile = ["'; DROP TABLE transactions; --", "x'); DELETE FROM records; --", "\" OR 1=1; --", "$1 ?? ☃"]

    @Test(arguments: TestBackend.available)
    func sqlInEveryFieldIsStoredAsData(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            for (index, text) in Self.hostile.enumerated() {
                let user = "\(text)#\(index)"
                let token = try harness.token(user)
                #expect(try await client.send(.get, "/v1/account", token: token).object()["user"] as? String == user)
                let segment = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let record: [String: Any] = [
                    "kind": "flag", "product": text, "purchaseDate": 1, "strategy": "server", "transaction": text, "user": user,
                ]
                let body = String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)
                #expect(try await client.send(.put, "/v1/records/\(segment)", token: token, body: body).status == .created)
                let spend = String(decoding: try JSONSerialization.data(withJSONObject: ["balance": text, "amount": 1]), as: UTF8.self)
                #expect(try await client.send(.put, "/v1/spends/\(segment)", token: token, body: spend).errorCode() == "insufficient-balance")

                // A signed transaction whose ids are the text: kept as given.
                let payload = harness.payload(text, product: text, user: user)
                let posted = try await client.send(.post, "/v1/transactions", token: token, body: ServerHarness.transactionBody(harness.sign(payload)))
                #expect(try posted.object()["product"] as? String == text)
                #expect(try await harness.storage.lookUpTransaction(text)?.productID == text)

                let records = try await harness.storage.records(of: user)
                #expect(records.map(\.transactionID) == [text])
                #expect(records.map(\.productID) == [text])
            }
            // Every user still has exactly their own record: nothing was dropped or deleted.
            for (index, text) in Self.hostile.enumerated() {
                #expect(try await harness.storage.records(of: "\(text)#\(index)").count == 1)
            }
        }
    }
}
