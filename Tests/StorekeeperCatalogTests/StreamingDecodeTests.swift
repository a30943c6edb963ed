import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

/// Products are decoded while their file is parsed; these cases must come
/// out exactly as a decode of the whole tree would.
@Suite struct StreamingDecodeTests {
    static let header = """
        catalog: shop
        app: {bundle-id: com.example.shop}
        features: [pro]

        """

    static func product(_ id: String, extra: String = "") -> String {
        """
          - id: com.example.\(id)
            type: non-consumable
            reference-name: \(id)
            price: "1.99"
            localizations: {en-US: {title: Item \(id), description: An item}}
            delivery: {model: built-in, unlocks: [pro]}
        \(extra)
        """
    }

    @Test func defaultsWrittenAfterProductsStillApply() throws {
        let text = Self.header + "products:\n" + Self.product("a") + Self.product("b", extra: "    family-shareable: false\n")
            + "defaults:\n  persistence: receipt\n  restore: receipt-refresh\n  family-shareable: true\n"
        let result = loadCatalog(text)
        #expect(result.diagnostics.isEmpty)
        let products = try #require(result.catalog?.products)
        #expect(products.map(\.id.value) == ["com.example.a", "com.example.b"])
        #expect(products.allSatisfy { $0.persistence.isInherited && $0.restore.isInherited })
        // The family-sharing default reaches products finished before it was read, but not one that says otherwise.
        #expect(products.map(\.isFamilyShareable) == [true, false])
    }

    @Test func productsWrittenInFullAreFinishedWhileParsingAndStillInheritFamilySharing() throws {
        let full = "    persistence: receipt\n    restore: receipt-refresh\n"
        let text = Self.header + "products:\n" + Self.product("a", extra: full) + "defaults: {family-shareable: true}\n"
        let result = loadCatalog(text)
        #expect(result.diagnostics.isEmpty)
        #expect(result.catalog?.products.first?.familyShareable?.value == true)
    }

    @Test func aMissingValueWithNoDefaultsAnywhereIsReportedAtTheProduct() throws {
        let text = Self.header + "products:\n" + Self.product("a")
        let result = loadCatalog(text)
        #expect(result.diagnostics.map(\.rule) == ["missing-key", "missing-key"])
        #expect(result.diagnostics.allSatisfy { $0.location.line == 5 && $0.location.column == 5 })
        #expect(result.catalog?.products.isEmpty == true)
    }

    @Test func anchoredAndAliasedProductsKeepTheirPlaceInFileOrder() throws {
        let full = "    persistence: receipt\n    restore: receipt-refresh\n"
        let anchored = Self.product("a", extra: full).replacingOccurrences(of: "  - id:", with: "  - &first\n    id:")
        let text = Self.header + "products:\n" + anchored + Self.product("b", extra: full) + "  - *first\n"
        let result = loadCatalog(text)
        let products = result.catalog?.products.map(\.id.value)
        #expect(products == ["com.example.a", "com.example.b"])
        // The alias repeats the first product: its id is the duplicate, reported at the alias's target with a note.
        let duplicate = try #require(result.diagnostics.first { $0.rule == "duplicate-id" })
        #expect(duplicate.notes.first?.location.line == 6)
    }

    @Test func aDuplicateIdAcrossAStreamedAndAKeptProductIsReportedAtTheLaterOne() throws {
        let full = "    persistence: receipt\n    restore: receipt-refresh\n"
        let first = Self.product("same", extra: full)
        let second = Self.product("same", extra: full).replacingOccurrences(of: "  - id:", with: "  - &keep\n    id:")
            .replacingOccurrences(of: "reference-name: same", with: "reference-name: other")
        let result = loadCatalog(Self.header + "products:\n" + first + second)
        let duplicate = try #require(result.diagnostics.first { $0.rule == "duplicate-id" })
        #expect(duplicate.location.line > duplicate.notes[0].location.line)
        #expect(result.catalog?.products.count == 1)
    }

    @Test func aSecondProductsKeyAddsNoProducts() throws {
        let full = "    persistence: receipt\n    restore: receipt-refresh\n"
        let text = Self.header + "products:\n" + Self.product("a", extra: full) + "products:\n" + Self.product("b", extra: full)
        let result = loadCatalog(text)
        #expect(result.diagnostics.map(\.rule) == ["duplicate-key"])
        #expect(result.catalog?.products.map(\.id.value) == ["com.example.a"])
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
