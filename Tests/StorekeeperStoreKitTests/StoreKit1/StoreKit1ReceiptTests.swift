import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
@testable import StorekeeperStoreKit
import Testing

/// The app receipt: its in-app entries read from PKCS #7 bytes, and its refresh.
@Suite struct StoreKit1ReceiptTests {
    typealias ASN1 = TestAppReceipt

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
        // The refunded one is kept apart, with its Cancellation Date (1712).
        #expect(payload.cancellations == [ReceiptCancellation(productID: StoreKit1World.rocketCar, transactionID: "1000000202",
                                                              date: Date(timeIntervalSince1970: 1_767_657_600))])
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
