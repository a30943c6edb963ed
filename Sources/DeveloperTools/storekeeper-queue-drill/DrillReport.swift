import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// What a completed launch reports: everything the queue delivered and kept,
/// in a form that compares equal between two runs of the same stream, so
/// that the crashed run's last launch can be compared with a run that never
/// crashed. Lists are sorted; dates are seconds since 1970.
struct DrillReport: Codable, Equatable, Sendable {
    /// The entitlements the queue publishes.
    struct EntitlementsReport: Codable, Equatable, Sendable {
        var features: [String]
        var balances: [String: Int]
        var ownedProducts: [String]
        var activeSubscriptions: [Subscription]
        /// Balances spends exceed: always empty in a drill (spends never go below zero).
        var overdrawn: [String: Int]
    }

    /// A subscription in force and when it ends.
    struct Subscription: Codable, Equatable, Sendable {
        var product: String
        var expires: Double?
    }

    /// One row of the grant ledger.
    struct Grant: Codable, Equatable, Sendable {
        var transaction: String
        var balance: String
        var amount: Int
    }

    /// One custom effect a plugin step returned.
    struct CustomEffect: Codable, Equatable, Sendable {
        var transaction: String
        var step: String
        var detail: String
    }

    /// A record kept in the journal (`app-state`) or in a record store.
    struct Record: Codable, Equatable, Sendable {
        var product: String
        var transaction: String
        var value: String
        var user: String?
        var purchaseDate: Double
        var expirationDate: Double?
    }

    var entitlements: EntitlementsReport
    var grants: [Grant]
    var customEffects: [CustomEffect]
    var appStateRecords: [Record]
    var iCloudRecords: [Record]
    /// Where each product's content was put, by product.
    var contentLocations: [String: String]
    /// The transactions the store finished, sorted, each once.
    var finished: [String]
    /// The stream the launch ran over: the same in every launch of one seed.
    var stream: [TransactionStream.Transaction]
    /// Each spend's answer by key (``DrillSpends``): what it spent and left, or its refusal.
    var spends: [String: String]

    /// The report of a queue that is idle with nothing pending.
    static func make(queue: TransactionQueue, store: FileBackedStore, iCloud: any RecordStore,
                     stream: TransactionStream, spends: [String: String]) async throws -> DrillReport {
        let entitlements = await queue.entitlements()
        let subscriptions = entitlements.activeSubscriptions.map {
            Subscription(product: $0.productID, expires: $0.expirationDate?.timeIntervalSince1970)
        }
        return DrillReport(
            entitlements: EntitlementsReport(
                features: entitlements.features.sorted(), balances: entitlements.balances,
                ownedProducts: entitlements.ownedProducts.sorted(), activeSubscriptions: subscriptions, overdrawn: entitlements.overdrawn),
            grants: try await queue.grantLedger().map { Grant(transaction: $0.transactionID, balance: $0.balance, amount: $0.amount) },
            customEffects: try await queue.customEffects().map { CustomEffect(transaction: $0.transactionID, step: $0.step, detail: $0.detail) },
            appStateRecords: try await queue.appStateRecords().map(Record.init).sorted(by: Record.precedes),
            iCloudRecords: try await iCloud.records().map(Record.init).sorted(by: Record.precedes),
            contentLocations: try await queue.contentLocations().mapValues { "\($0.source.rawValue):\($0.path)" },
            finished: await store.finishedIDs.sorted(),
            stream: stream.transactions,
            spends: spends)
    }

    /// The report a launch wrote to `path`.
    static func read(_ path: String) throws(DrillError) -> DrillReport {
        do {
            return try JSONDecoder().decode(DrillReport.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw DrillError.message("cannot read the report in \(path): \(error)")
        }
    }

    /// The report as JSON, keys sorted, so that equal reports print the same bytes.
    func json(pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
        return try encoder.encode(self)
    }
}

extension DrillReport.Record {
    /// A stored record as reported.
    init(_ record: StoredRecord) {
        let value: String
        switch record.value {
        case .flag: value = "flag"
        case .receipt(let bytes): value = "receipt:\(Data(bytes).base64EncodedString())"
        case .transaction(let id, let quantity): value = "transaction:\(id)x\(quantity)"
        }
        self.init(product: record.productID, transaction: record.transactionID, value: value, user: record.applicationUsername,
                  purchaseDate: record.purchaseDate.timeIntervalSince1970, expirationDate: record.expirationDate?.timeIntervalSince1970)
    }

    /// By transaction, then product: an order that does not depend on the store's.
    static func precedes(_ a: Self, _ b: Self) -> Bool {
        (a.transaction, a.product) < (b.transaction, b.product)
    }
}
