import StorekeeperStoreKit
import Testing

/// Xcode's layout: what a written file looks like, character for character.
@Suite struct StoreKitWriterTests {
    @Test func keysAreSortedWithoutRegardToCaseAsXcodeSortsThem() {
        #expect(StoreKitWriter.orders("_storefront", before: "_storeKitErrors"))
        #expect(!StoreKitWriter.orders("_storeKitErrors", before: "_storefront"))
        #expect(StoreKitWriter.orders("introductoryOffer", before: "introductoryOffers"))
        #expect(StoreKitWriter.orders("item2", before: "item10"))
        #expect(StoreKitWriter.orders("adHocOffers", before: "billingPlans"))
    }
}
