import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperSimulatedStore
import StorekeeperStoreModel
import StorekeeperTestChain
import StorekeeperTestSupport
import Testing

/// The fixture catalog compiled once, a test chain, and a model over them.
enum ModelFixture {
    /// 2026-01-10T00:00:00Z, inside the test chain's validity.
    static let start = Date(timeIntervalSince1970: 1_768_003_200)
    /// 2026-02-10T00:00:00Z: one month after ``start``.
    static let monthLater = Date(timeIntervalSince1970: 1_770_681_600)
    static let day: TimeInterval = 86_400

    static let policy: Result<CompiledPolicy, any Error> = Result {
        try ScratchFolder.with(prefix: "storekeeper-store-model") { folder in
            let path = folder.appendingPathComponent("catalog.yaml").path
            try StoreModelCatalog.yaml.write(toFile: path, atomically: true, encoding: .utf8)
            return try PolicyLoader().load(contentsOf: path)
        }
    }

    static let chain: Result<TestCertificateChain, any Error> = Result { try TestCertificateChain(options: .init(seed: 24)) }

    static func model(gracePeriodDays: Int? = nil, start: Date = start) throws -> StoreModel {
        let configuration = StoreModel.Configuration(
            bundleID: StoreModelCatalog.bundleID, appAppleID: 1_234_567_890, environment: .sandbox, start: start,
            billingGracePeriodDays: gracePeriodDays, signer: SignedDataSigner(chain: try chain.get()))
        return StoreModel(policy: try policy.get(), configuration: configuration)
    }
}

extension [StoreMessage] {
    var notifications: [ServerNotification] {
        compactMap { if case .notification(let notification) = $0 { notification } else { nil } }
    }

    var transactions: [DeviceTransaction] {
        compactMap { if case .transaction(let transaction) = $0 { transaction } else { nil } }
    }

    /// "TYPE/SUBTYPE status" of each notification, in order, for readable expectations.
    var kinds: [String] {
        notifications.map { notification in
            let payload = notification.payload
            let subtype = payload.subtype.map { "/" + $0.rawValue } ?? ""
            let status = payload.status.map { " \($0.rawValue)" } ?? ""
            return payload.notificationType.rawValue + subtype + status
        }
    }
}

@Suite struct FixtureCatalogTests {
    @Test func compiles() throws {
        // What the catalog's documentation promises: every type, one group with two levels and two periods,
        // family-shareable products of two types, a consumable granting coins.
        let policy = try ModelFixture.policy.get()
        #expect(Set(policy.products.map(\.type)) == Set(ProductType.allCases))
        let group = policy.products.compactMap(\.subscription).filter { $0.group == StoreModelCatalog.group }
        #expect(Set(group.map(\.level)) == [1, 2])
        #expect(Set(group.map(\.period)) == [.oneMonth, .oneYear])
        #expect(Set(policy.products.filter(\.familyShareable).map(\.type)) == [.nonConsumable, .autoRenewableSubscription])
        #expect(policy.products.first { $0.id == StoreModelCatalog.coins }?.grants == [GrantPolicy(balance: StoreModelCatalog.coinsBalance, amount: 100)])
    }
}
