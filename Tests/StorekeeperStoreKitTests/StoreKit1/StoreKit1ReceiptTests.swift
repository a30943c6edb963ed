import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
@testable import StorekeeperStoreKit
import Testing

/// The app receipt: its in-app entries read from PKCS #7 bytes, and its refresh.
@Suite struct StoreKit1ReceiptTests {
    /// Writes ASN.1: DER lengths, or BER's indefinite ones.
    enum ASN1 {
        static func element(_ tag: UInt8, _ content: [UInt8], indefinite: Bool = false) -> [UInt8] {
            if indefinite { return [tag, 0x80] + content + [0, 0] }
            let count = content.count
            let length: [UInt8] = count < 0x80 ? [UInt8(count)] : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
            return [tag] + length + content
        }
        static func integer(_ value: Int) -> [UInt8] {
            value < 0x80 ? element(0x02, [UInt8(value)]) : element(0x02, [UInt8(value >> 8), UInt8(value & 0xFF)])
        }
        static func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
            element(0x30, integer(type) + integer(1) + element(0x04, value))
        }
        static func utf8(_ text: String) -> [UInt8] { element(0x0C, Array(text.utf8)) }
        static func ia5(_ text: String) -> [UInt8] { element(0x16, Array(text.utf8)) }

        static func purchase(product: String, transaction: String, date: String, expires: String? = nil, cancelled: String? = nil) -> [UInt8] {
            var fields = attribute(1701, integer(1)) + attribute(1702, utf8(product)) + attribute(1703, utf8(transaction))
                + attribute(1704, ia5(date))
            if let expires { fields += attribute(1708, ia5(expires)) }
            if let cancelled { fields += attribute(1712, ia5(cancelled)) }
            return attribute(17, element(0x31, fields))
        }

        /// A receipt: ContentInfo { signedData, [0] SignedData { version, digests, { data, [0] payload }, signers } }.
        static func receipt(_ purchases: [[UInt8]], indefinite: Bool = false) -> [UInt8] {
            let payload = element(0x31, attribute(2, utf8("com.example.rocketracer")) + purchases.joined())
            let octets = indefinite ? element(0x24, element(0x04, Array(payload.prefix(10))) + element(0x04, Array(payload.dropFirst(10))), indefinite: true)
                : element(0x04, payload)
            let encapsulated = element(0x30, element(0x06, Array(ASN1Reader.dataOID)) + element(0xA0, octets, indefinite: indefinite), indefinite: indefinite)
            let signedData = element(0x30, integer(1) + element(0x31, []) + encapsulated + element(0x31, []), indefinite: indefinite)
            return element(0x30, element(0x06, Array(ASN1Reader.signedDataOID)) + element(0xA0, signedData, indefinite: indefinite), indefinite: indefinite)
        }
    }

    static let twoPurchases = [
        ASN1.purchase(product: StoreKit1World.noAds, transaction: "1000000200", date: "2026-01-02T03:04:05Z"),
        ASN1.purchase(product: StoreKit1World.proMonthly, transaction: "1000000201", date: "2026-02-01T00:00:00Z", expires: "2026-03-01T00:00:00Z"),
        ASN1.purchase(product: StoreKit1World.rocketCar, transaction: "1000000202", date: "2026-01-05T00:00:00Z", cancelled: "2026-01-06T00:00:00Z"),
    ]
    static let expected = [
        ReceiptEntry(productID: StoreKit1World.noAds, transactionID: "1000000200", purchaseDate: Date(timeIntervalSince1970: 1_767_323_045)),
        ReceiptEntry(productID: StoreKit1World.proMonthly, transactionID: "1000000201", purchaseDate: Date(timeIntervalSince1970: 1_769_904_000),
                     expirationDate: Date(timeIntervalSince1970: 1_772_323_200)),
    ]

    @Test(arguments: [false, true])
    func theInAppPurchasesAreReadRefundedOnesLeftOut(indefinite: Bool) throws {
        let payload = try AppReceiptPayload(receipt: ASN1.receipt(Self.twoPurchases, indefinite: indefinite))
        #expect(payload.entries == Self.expected)
    }

    @Test func aReceiptThatIsNotOneSaysWhereItStopsMakingSense() {
        let notPKCS7 = ASN1.element(0x30, ASN1.element(0x06, [0x2A, 0x03]) + ASN1.element(0xA0, ASN1.element(0x30, [])))
        #expect(throws: AppReceiptError(offset: 0, reason: "not a PKCS #7 signedData receipt (its content type is not 1.2.840.113549.1.7.2)")) {
            try AppReceiptPayload(receipt: notPKCS7)
        }
        var truncated = ASN1.receipt(Self.twoPurchases)
        truncated.removeLast(20)
        do {
            _ = try AppReceiptPayload(receipt: truncated)
            Issue.record("a cut receipt was read")
        } catch {
            #expect(error.offset == 0)
            #expect(error.reason.contains("runs past its end"))
        }
        let badDate = ASN1.receipt([ASN1.purchase(product: StoreKit1World.noAds, transaction: "1", date: "yesterday")])
        #expect(throws: AppReceiptError.self) { try AppReceiptPayload(receipt: badDate) }
        // Nesting with no end is refused, not followed.
        let deep = [UInt8](Array(repeating: [UInt8(0x30), 0x80], count: 200).joined())
        #expect(throws: AppReceiptError.self) { try AppReceiptPayload(receipt: deep) }
    }

    @Test func aRefreshedReceiptIsWhatTheReceiptProductsAreOwnedThrough() async throws {
        // A new device: no receipt yet, no transactions to deliver (the restore
        // policy of these products is a receipt refresh).
        let receipt = FakeReceipt(bytes: nil, refreshed: ASN1.receipt(Self.twoPurchases))
        let world = try StoreKit1World(receipt: receipt)
        let queue = try await world.startQueue()
        #expect(await world.backend.receiptEntries().isEmpty)
        #expect(!(await queue.entitlements().owns(StoreKit1World.noAds)))

        try await world.backend.refreshReceipt()
        #expect(receipt.state.withLock { $0.refreshes } == 1)
        #expect(await world.backend.receiptEntries() == Self.expected)
        await queue.refreshEntitlements()
        let entitlements = await queue.entitlements()
        #expect(entitlements.owns(StoreKit1World.noAds) && entitlements.isUnlocked("ad-free"))
        #expect(!entitlements.owns(StoreKit1World.rocketCar), "a refunded purchase is not owned")
        await queue.stop()
    }

    @Test func aRefreshThatFailsSaysSo() async throws {
        let receipt = FakeReceipt(bytes: nil)
        receipt.state.withLock { $0.refreshFailure = .transient("the App Store request failed: not signed in") }
        let world = try StoreKit1World(receipt: receipt)
        do {
            try await world.backend.refreshReceipt()
            Issue.record("the refresh did not fail")
        } catch {
            #expect(error == .transient("the App Store request failed: not signed in"))
        }
    }
}

/// `SKError.Code` and the other domains to the queue's store errors, as the table in StoreKit1Error documents.
@Suite struct StoreKit1ErrorMappingTests {
    @Test func everySKErrorCodeHasItsStoreError() {
        let table: [Int: StoreErrorCode] = [
            0: .unknown, 1: .clientInvalid, 2: .paymentCancelled, 3: .paymentInvalid, 4: .paymentNotAllowed, 5: .productNotAvailable,
            6: .cloudServicePermissionDenied, 7: .cloudServiceNetworkConnectionFailed, 8: .cloudServiceRevoked, 9: .paymentNotAllowed,
            10: .clientInvalid, 11: .paymentInvalid, 12: .paymentInvalid, 13: .paymentInvalid, 14: .paymentInvalid, 15: .paymentCancelled,
            16: .clientInvalid, 17: .unknown, 18: .paymentInvalid, 19: .clientInvalid, 20: .clientInvalid, 21: .unknown, -1: .unknown,
        ]
        for (code, expected) in table {
            #expect(StoreKit1Error(domain: StoreKit1Error.storeKitDomain, code: code).storeErrorCode == expected, "SKError code \(code)")
        }
        #expect(StoreKit1Error(domain: StoreKit1Error.urlDomain, code: -1009).storeErrorCode == .networkError)
        #expect(StoreKit1Error(domain: "NSCocoaErrorDomain", code: 2).storeErrorCode == .unknown)
    }
}

/// Products and prices through `SKProductsRequest`, types from the catalog.
@Suite struct StoreKit1ProductsTests {
    @Test func productsComeWithTheirPriceAsTheStoreWritesItAndTheirTypeFromTheCatalog() async throws {
        let requester = FakeProductsRequester(sold: [
            StoreKit1Product(id: StoreKit1World.coins, localizedTitle: "Pouch of Coins", localizedDescription: "500 coins",
                             price: Decimal(string: "0.99") ?? 0, priceLocale: Locale(identifier: "en_US")),
            StoreKit1Product(id: StoreKit1World.proMonthly, localizedTitle: "Pro", localizedDescription: "Monthly",
                             price: Decimal(string: "2.99") ?? 0, priceLocale: Locale(identifier: "en_US")),
        ])
        let world = try StoreKit1World(products: requester)
        let lookup = try await world.backend.products(for: [StoreKit1World.coins, StoreKit1World.proMonthly, StoreKit1World.noAds, "com.example.not-in-catalog"])
        #expect(requester.asked.withLock { $0 } == [[StoreKit1World.coins, StoreKit1World.proMonthly, StoreKit1World.noAds]],
                "an id the catalog does not declare is not asked for")
        #expect(lookup.products == [
            StoreProduct(id: StoreKit1World.coins, displayName: "Pouch of Coins", description: "500 coins", price: Decimal(string: "0.99") ?? 0,
                         displayPrice: "$0.99", currencyCode: "USD", type: .consumable),
            StoreProduct(id: StoreKit1World.proMonthly, displayName: "Pro", description: "Monthly", price: Decimal(string: "2.99") ?? 0,
                         displayPrice: "$2.99", currencyCode: "USD", type: .autoRenewableSubscription),
        ])
        #expect(lookup.unknownIDs == ["com.example.not-in-catalog", StoreKit1World.noAds])
    }

    @Test func withoutAProductsRequestEveryIdIsUnknown() async throws {
        let world = try StoreKit1World()
        let lookup = try await world.backend.products(for: [StoreKit1World.coins])
        #expect(lookup == ProductLookup(products: [], unknownIDs: [StoreKit1World.coins]))
    }
}
