import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperTestSupport
import StorekeeperTooling
import StorekeeperXcodeConfig
import Testing

/// `Workflows.importStoreKit` and `Workflows.exportStoreKit`: Xcode's .storekit files in and out.
@Suite struct ImportExportWorkflowTests {
    /// The .storekit files StorekeeperXcodeConfigTests keeps (see its Fixtures/SOURCES.md).
    static let fixtures = PackageRoot.path + "/Tests/StorekeeperXcodeConfigTests/Fixtures"

    @Test("import makes a catalog of a real .storekit file, and that catalog validates without errors")
    func importsAFixture() throws {
        let file = Self.fixtures + "/revenuecat-unit-tests.storekit"
        let importation = try Workflows.importStoreKit(file, catalogName: "revenuecat", bundleID: "com.example.revenuecat")
        #expect(!importation.hasErrors, "\(importation.report.diagnostics)")
        let imported = try #require(importation.imported)
        let ids = Set(try #require(imported.catalog).products.map(\.id.value))
        #expect(ids.isSuperset(of: ["com.revenuecat.consumable", "lifetime", "com.revenuecat.non_renewable", "com.revenuecat.monthly_4.99.1_week_intro"]))
        #expect(imported.catalogName == "revenuecat")
        #expect(imported.text.contains("bundle-id: com.example.revenuecat"))
        // The policy rules ran on the catalog made (these two are theirs, not the importer's),
        // and every finding, theirs included, is located in the .storekit file, not in the catalog.
        let rules = Set(importation.report.diagnostics.map(\.rule))
        #expect(rules.isSuperset(of: ["display-length", "duplicate-subscription-period", "storekit-not-imported"]), "\(rules)")
        #expect(importation.report.diagnostics.allSatisfy { $0.location.file == file }, "\(importation.report.diagnostics)")

        let written = ["revenuecat.yaml": imported.text]
        let validation = try Workflows.validate(["revenuecat.yaml"], options: TestCatalogs.options(written))
        #expect(!validation.hasErrors, "\(validation.report.diagnostics)")
    }

    @Test("a .storekit file with errors makes no catalog; one that cannot be read stops the import")
    func importRefuses() throws {
        let reader = InMemorySourceReader(["broken.storekit": "{\"products\": ["])
        let importation = try Workflows.importStoreKit("broken.storekit", reader: reader)
        #expect(importation.hasErrors)
        #expect(importation.imported == nil)
        #expect(importation.report.errorCount > 0)
        #expect(importation.report.diagnostics.allSatisfy { $0.location.file == "broken.storekit" })

        let failure = #expect(throws: WorkflowFailure.self) { try Workflows.importStoreKit("absent.storekit", reader: reader) }
        #expect(failure?.message.contains("absent.storekit") == true)
    }

    @Test("export writes the catalog's products into a .storekit file, and names the files it came from")
    func exportsACatalog() throws {
        let exportation = try Workflows.exportStoreKit("shop.yaml", options: TestCatalogs.options(["shop.yaml": TestCatalogs.shop()]))
        let export = try #require(exportation.export)
        #expect(exportation.report.errorCount == 0)
        #expect(exportation.inputs == ["shop.yaml"])
        let read = StoreKitReader().read(Array(export.text.utf8), file: "shop.storekit")
        #expect(!read.hasErrors, "\(read.diagnostics)")
        #expect(try #require(read.configuration).products.map(\.productID.value) == ["com.example.shop.coins"])
    }

    @Test("export checks the format only: a policy-rule error does not stop it, a format error does")
    func exportChecksTheFormat() throws {
        let ruled = try Workflows.exportStoreKit("shop.yaml", options: TestCatalogs.options(["shop.yaml": TestCatalogs.shop(restore: "receipt-refresh")]))
        #expect(ruled.export != nil)
        #expect(ruled.report.diagnostics.allSatisfy { $0.rule != "consumable-restore" })

        let misspelt = try Workflows.exportStoreKit("shop.yaml", options: TestCatalogs.options(["shop.yaml": TestCatalogs.shop(restore: "nonee")]))
        #expect(misspelt.export == nil)
        #expect(misspelt.report.diagnostics.map(\.rule) == ["invalid-value"])

        let failure = #expect(throws: WorkflowFailure.self) {
            try Workflows.exportStoreKit("shop.yaml", base: "absent.storekit", options: TestCatalogs.options(["shop.yaml": TestCatalogs.shop()]))
        }
        #expect(failure?.message.hasPrefix("--base: ") == true)
    }
}
