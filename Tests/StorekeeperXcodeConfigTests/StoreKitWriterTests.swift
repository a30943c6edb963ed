import StorekeeperCore
import StorekeeperXcodeConfig
import Testing

/// Xcode's layout, character for character: both real files, read and
/// written again, come out unchanged.
@Suite struct StoreKitWriterTests {
    @Test(arguments: StoreKitFixtures.all)
    func aFileXcodeWroteIsWrittenBackByteForByte(name: String) throws {
        let text = try StoreKitFixtures.text(name)
        let root = try StoreKitJSONReader().read(Array(text.utf8), file: name)
        #expect(StoreKitWriter().write(root.value) == text)
    }

    @Test func keysAreSortedWithoutRegardToCaseAsXcodeSortsThem() {
        #expect(StoreKitWriter.orders("_storefront", before: "_storeKitErrors"))
        #expect(!StoreKitWriter.orders("_storeKitErrors", before: "_storefront"))
        #expect(StoreKitWriter.orders("introductoryOffer", before: "introductoryOffers"))
        #expect(StoreKitWriter.orders("item2", before: "item10"))
        #expect(StoreKitWriter.orders("adHocOffers", before: "billingPlans"))
        let written = StoreKitWriter().write(.object(["b": .integer(1), "B2": .integer(2), "a": .array([]), "c": .object([])]))
        #expect(written == "{\n  \"a\" : [\n\n  ],\n  \"b\" : 1,\n  \"B2\" : 2,\n  \"c\" : {\n\n  }\n}\n")
    }

    @Test func nestedEmptyContainersCloseAtTheirParentsIndentation() {
        let written = StoreKitWriter().write(.object(["groups": .array([.object(["localizations": .array([])])])]))
        #expect(written == "{\n  \"groups\" : [\n    {\n      \"localizations\" : [\n\n      ]\n    }\n  ]\n}\n")
    }

    @Test func stringsAreEscapedAsFoundationEscapesThem() {
        let written = StoreKitWriter().write(.string("a\"b\\c/d\ne\tf\u{01}gé🎁"))
        #expect(written == "\"a\\\"b\\\\c\\/d\\ne\\tf\\u0001gé🎁\"\n")
        #expect(StoreKitWriter().write(.array([.null, .bool(true), .integer(-3), .number("1.50")])) == "[\n  null,\n  true,\n  -3,\n  1.50\n]\n")
    }
}
