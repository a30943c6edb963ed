import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// Many tasks, on two instances of the storage sharing one database (two server processes), applying
/// the same thing at once: one effect.
@Suite struct ConcurrencyTests {
    static let tasks = 40

    @Test(arguments: TestBackend.available)
    func theSameSpendKeyAtOnceSpendsOnce(backend: TestBackend) async throws {
        try await backend.withStorage { (first: any LedgerStorage, second: any LedgerStorage) async throws in
            _ = try await first.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 1000))
            let spend = SpendRequest(user: "alice", key: "once", balance: "coins", amount: 30)
            let outcomes = try await withThrowingTaskGroup(of: SpendOutcome.self) { group in
                for index in 0..<Self.tasks {
                    let storage = index.isMultiple(of: 2) ? first : second
                    group.addTask { try await storage.spend(spend) }
                }
                var all: [SpendOutcome] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            #expect(outcomes.filter { $0 == .spent(remaining: 970) }.count == 1)
            #expect(outcomes.filter { $0 == .repeated(remaining: 970) }.count == Self.tasks - 1)
            #expect(try await second.balances(of: "alice") == ["coins": 970])
        }
    }

    @Test(arguments: TestBackend.available)
    func manySpendsAtOnceNeverGoBelowZero(backend: TestBackend) async throws {
        try await backend.withStorage { (first: any LedgerStorage, second: any LedgerStorage) async throws in
            _ = try await first.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 15))
            let outcomes = try await withThrowingTaskGroup(of: SpendOutcome.self) { group in
                for index in 0..<Self.tasks {
                    let storage = index.isMultiple(of: 2) ? first : second
                    group.addTask { try await storage.spend(SpendRequest(user: "alice", key: "k\(index)", balance: "coins", amount: 1)) }
                }
                var all: [SpendOutcome] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            let spent = outcomes.filter { if case .spent = $0 { true } else { false } }
            #expect(spent.count == 15)
            #expect(outcomes.filter { $0 == .insufficient(available: 0) }.count == Self.tasks - 15)
            #expect(Set(spent) == Set((0..<15).map { SpendOutcome.spent(remaining: $0) }))
            #expect(try await first.balances(of: "alice") == ["coins": 0])
        }
    }

    @Test(arguments: TestBackend.available)
    func theSameNotificationAtOnceIsAppliedOnce(backend: TestBackend) async throws {
        try await backend.withStorage { (first: any LedgerStorage, second: any LedgerStorage) async throws in
            let notification = Samples.notification("n-once")
            let effects: [LedgerEffect] = [
                .transaction(Samples.transaction("1000", user: "alice")),
                .grant(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 100)),
            ]
            let applied = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<Self.tasks {
                    let storage = index.isMultiple(of: 2) ? first : second
                    group.addTask {
                        let receipt = try await storage.receive(notification)
                        guard receipt != .processed else { return false }
                        return try await storage.process(notificationUUID: notification.notificationUUID, effects: effects, at: 1)
                    }
                }
                var all: [Bool] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            #expect(applied.filter { $0 }.count == 1)
            #expect(try await first.balances(of: "alice") == ["coins": 100])
            #expect(try await second.notifications(limit: 10).count == 1)
        }
    }

    @Test(arguments: TestBackend.available)
    func theSameGrantAndRecordAtOnceAreKeptOnce(backend: TestBackend) async throws {
        try await backend.withStorage { (first: any LedgerStorage, second: any LedgerStorage) async throws in
            let record = ServerRecord(transactionID: "1000", productID: "com.example.pro", strategy: "server", kind: "flag", purchaseDate: 1)
            let results = try await withThrowingTaskGroup(of: (Bool, RecordWrite).self) { group in
                for index in 0..<Self.tasks {
                    let storage = index.isMultiple(of: 2) ? first : second
                    group.addTask {
                        let granted = try await storage.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 7))
                        return (granted, try await storage.put(record, for: "alice"))
                    }
                }
                var all: [(Bool, RecordWrite)] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            #expect(results.filter(\.0).count == 1)
            #expect(results.filter { $0.1 == .created }.count == 1)
            #expect(try await first.balances(of: "alice") == ["coins": 7])
            #expect(try await second.records(of: "alice") == [record])
        }
    }
}
