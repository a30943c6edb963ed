import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// `PUT /v1/records/{transactionID}` and `GET /v1/records`: per user, by transaction id.
@Suite struct RecordRouteTests {
    static let record = #"{"kind":"transaction","product":"com.example.servertests.coins","purchaseDate":1700000100.5,"quantity":5,"strategy":"server","transaction":"a/b c","user":"alice"}"#

    @Test(arguments: TestBackend.available)
    func aRecordIsCreatedThenReplacedAndListedForItsUserOnly(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let alice = try harness.token("alice")
            #expect(try await client.send(.put, "/v1/records/a%2Fb%20c", token: alice, body: Self.record).status == .created)
            let replaced = Self.record.replacingOccurrences(of: #""quantity":5"#, with: #""quantity":7"#)
            #expect(try await client.send(.put, "/v1/records/a%2Fb%20c", token: alice, body: replaced).status == .ok)

            let records = try await client.send(.get, "/v1/records", token: alice).object()["records"] as? [[String: Any]]
            #expect(records?.count == 1)
            #expect(records?.first?["transaction"] as? String == "a/b c")
            #expect(records?.first?["quantity"] as? Int == 7)
            #expect(records?.first?["purchaseDate"] as? Double == 1700000100.5)
            #expect(records?.first?["user"] as? String == "alice")

            let bobs = try await client.send(.get, "/v1/records", token: try harness.token("bob")).object()["records"] as? [Any]
            #expect(bobs?.isEmpty == true)
        }
    }

    @Test(arguments: TestBackend.available)
    func aRecordNamingAnotherUserIs403AndNotKept(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let response = try await client.send(.put, "/v1/records/a%2Fb%20c", token: try harness.token("bob"), body: Self.record)
            #expect(response.status == .forbidden)
            #expect(response.errorCode() == "user-mismatch")
            #expect(try await harness.storage.records(of: "bob").isEmpty)
            #expect(try await harness.storage.records(of: "alice").isEmpty)
        }
    }

    @Test(arguments: TestBackend.available)
    func bodiesThatAreNotRecordsAre400NamingTheMember(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let token = try harness.token("alice")
            func variant(_ from: String, _ to: String) -> String { Self.record.replacingOccurrences(of: from, with: to) }
            let cases: [(String, String, String)] = [
                ("x", Self.record, "the path's 'x'"),
                ("a%2Fb%20c", variant(#""quantity":5,"#, ""), "quantity: missing"),
                ("a%2Fb%20c", variant(#""kind":"transaction""#, #""kind":"gift""#), "kind"),
                ("a%2Fb%20c", variant(#""strategy":"server""#, #""strategy":"cloud""#), "strategy"),
                ("a%2Fb%20c", variant(#""product":"com.example.servertests.coins""#, #""product":"""#), "product"),
                ("a%2Fb%20c", variant(#""purchaseDate":1700000100.5"#, #""purchaseDate":"today""#), "purchaseDate"),
                ("a%2Fb%20c", variant(#""kind":"transaction""#, #""kind":"receipt","receipt":"%%%""#), "quantity"),
                ("a%2Fb%20c", "{\"kind\":", "not JSON"),
                ("%zz", Self.record, "percent-encoded"),
            ]
            for (path, body, message) in cases {
                let response = try await client.send(.put, "/v1/records/\(path)", token: token, body: body)
                #expect(response.status == .badRequest, "\(message)")
                #expect(response.errorMessage()?.contains(message) == true, "\(message): \(response.errorMessage() ?? "")")
            }
            #expect(try await harness.storage.records(of: "alice").isEmpty)
        }
    }
}
