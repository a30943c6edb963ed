import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperXcodeConfig
import Testing

/// A .storekit file of many broken products makes a report of a bounded
/// size, like every other source of diagnostics (issue 15, item 11): the
/// reader listed one error per product and noted every place of a key it
/// does not import, without limit.
@Suite struct StoreKitReaderCapTests {
    /// `count` products, each with an unknown type and an internal id (not imported).
    static func file(products count: Int) -> String {
        let products = (0..<count).map { index in
            #"{"displayPrice": "0.99", "familyShareable": false, "internalID": "ID\#(index)", "localizations": [], "productID": "p\#(index)", "referenceName": "P\#(index)", "type": "Bogus"}"#
        }
        return #"{"identifier": "X", "nonRenewingSubscriptions": [], "products": ["# + products.joined(separator: ",")
            + #"], "settings": {}, "subscriptionGroups": [], "version": {"major": 4, "minor": 0}}"#
    }

    @Test func errorsAreCappedAndTheRestCounted() {
        let result = StoreKitReader().read(Array(Self.file(products: 10_500).utf8), file: "big.storekit")
        #expect(result.diagnostics.count == DiagnosticCap.limit + 1)
        let last = result.diagnostics.last
        #expect(last?.rule == "too-many-problems")
        #expect(last?.severity == .error)
        #expect(last?.message.contains("were found by reading the .storekit file and not listed") == true, "\(String(describing: last))")
    }

    @Test func aKeyLeftOutNotesItsFirstHundredPlaces() {
        let result = StoreKitReader().read(Array(Self.file(products: 150).utf8), file: "ids.storekit")
        let internalIDs = result.diagnostics.first { $0.message.contains("internalID") }
        #expect(internalIDs?.notes.count == 100)
        #expect(internalIDs?.message.contains("(150 places, the first 100 noted)") == true, "\(String(describing: internalIDs))")
    }
}
