import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// Another user's token reads and changes nothing of a user's: records, entitlements, spends, content.
@Suite struct IsolationTests {
    @Test(arguments: TestBackend.available)
    func anotherUsersTokenCannotReadOrChangeAUsersPurchases(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let alice = try harness.token("alice")
            let bob = try harness.token("bob")
            for (id, product) in [("7000000001", ServerHarness.coins), ("7000000002", ServerHarness.level2)] {
                let jws = try harness.sign(harness.payload(id, product: product, user: "alice"))
                #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(jws)).status == .ok)
            }
            let record = #"{"kind":"flag","product":"com.example.servertests.pro","purchaseDate":1,"strategy":"server","transaction":"7000000003"}"#
            #expect(try await client.send(.put, "/v1/records/7000000003", token: alice, body: record).status == .created)
            let before = try await client.send(.get, "/v1/entitlements", token: alice).text

            // Bob reads: nothing of Alice's.
            #expect((try await client.send(.get, "/v1/records", token: bob).object()["records"] as? [Any])?.isEmpty == true)
            let bobs = try await client.send(.get, "/v1/entitlements", token: bob).object()
            #expect(bobs["features"] as? [String] == [])
            #expect(bobs["balances"] as? [String: Int] == ["coins": 0])
            #expect(try await client.send(.get, "/v1/content/packs/level-2.zip", token: bob).status == .forbidden)

            // Bob writes: his own record of the same id, a spend that finds no coins, a record naming Alice.
            let bobsRecord = record.replacingOccurrences(of: "servertests.pro", with: "servertests.bonus")
            #expect(try await client.send(.put, "/v1/records/7000000003", token: bob, body: bobsRecord).status == .created)
            let named = record.replacingOccurrences(of: #""transaction""#, with: #""user":"alice","transaction""#)
            #expect(try await client.send(.put, "/v1/records/7000000003", token: bob, body: named).status == .forbidden)
            #expect(try await client.send(.put, "/v1/spends/s", token: bob, body: #"{"balance":"coins","amount":1}"#).status == .conflict)

            // Alice's purchases are as they were.
            #expect(try await client.send(.get, "/v1/entitlements", token: alice).text == before)
            #expect(try await harness.storage.records(of: "alice").map(\.productID) == [ServerHarness.pro])
            #expect(try await harness.storage.balances(of: "alice") == ["coins": 100])
        }
    }
}
