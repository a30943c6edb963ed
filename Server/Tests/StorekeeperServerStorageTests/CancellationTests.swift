import Foundation
@testable import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// A database transaction whose task is cancelled half-way (a client that hung up, a server
/// shutting down): nothing it wrote stays, and the next transaction works. On SQLite, GRDB runs
/// nothing for a cancelled task, so the ROLLBACK used to be skipped and the writer stayed inside the
/// transaction: every later `BEGIN IMMEDIATE` failed.
@Suite struct CancellationTests {
    @Test(arguments: TestBackend.available)
    func aTransactionCancelledMidwayLeavesNoPartialWriteAndTheNextOneWorks(backend: TestBackend) async throws {
        try await backend.withStorage { storage, _ in
            let sql = try #require(storage as? SQLLedgerStorage)
            let (written, writtenSource) = AsyncStream.makeStream(of: Void.self)
            let task = Task {
                try await sql.database.transaction { session in
                    try await session.run(
                        """
                        INSERT INTO records (product_id, strategy, kind, quantity, receipt, purchase_date, expiration_date, user_id, transaction_id)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, .text("p"), .text("server"), .text("flag"), .null, .null, .real(1), .null, .text("alice"), .text("half-way"))
                    writtenSource.yield()
                    // Waits for the cancellation; the second half of the work never comes.
                    try await Task.sleep(for: .seconds(60))
                    return 0
                }
            }
            var waiting = written.makeAsyncIterator()
            _ = await waiting.next()
            task.cancel()
            if case .success = await task.result { Issue.record("the cancelled transaction succeeded") }

            #expect(try await storage.records(of: "alice").isEmpty, "the cancelled transaction's write was rolled back")
            let record = ServerRecord(transactionID: "after", productID: "p", strategy: "server", kind: "flag", purchaseDate: 2)
            #expect(try await storage.put(record, for: "alice") == .created)
            #expect(try await storage.records(of: "alice").map(\.transactionID) == ["after"])
        }
    }
}
