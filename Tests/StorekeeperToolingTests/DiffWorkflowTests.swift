import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperTooling
import Testing

/// `Workflows.diff`: two sides loaded and compared.
@Suite struct DiffWorkflowTests {
    @Test("a consumable removed between two catalog files is found, located in OLD")
    func findsARemovedConsumable() throws {
        let files = ["old/shop.yaml": TestCatalogs.shop(extraProducts: TestCatalogs.gems), "new/shop.yaml": TestCatalogs.shop()]
        let comparison = try Workflows.diff(old: "old/shop.yaml", new: "new/shop.yaml", options: TestCatalogs.options(files))
        #expect(!comparison.sideFailedToLoad)
        #expect(comparison.report.diagnostics.map(\.rule) == ["diff-consumable-removed"])
        #expect(comparison.report.diagnostics.first?.location.file == "old/shop.yaml")
        #expect(comparison.report.filesChecked == 2)
        // A warning: it fails only under --strict.
        #expect(!comparison.fails(strict: false))
        #expect(comparison.fails(strict: true))
    }

    @Test("two folders are compared catalog by catalog; the same catalog twice finds nothing")
    func comparesFolders() throws {
        let files = ["old/shop.yaml": TestCatalogs.shop(extraProducts: TestCatalogs.gems), "new/shop.yaml": TestCatalogs.shop(extraProducts: TestCatalogs.gems)]
        let comparison = try Workflows.diff(old: "old", new: "new", options: TestCatalogs.options(files))
        #expect(comparison.report.diagnostics.isEmpty)
        #expect(!comparison.fails(strict: true))
    }

    @Test("a side that does not load is not compared, and its errors say which side")
    func brokenSide() throws {
        let files = ["old.yaml": TestCatalogs.shop(extraProducts: TestCatalogs.gems), "new.yaml": TestCatalogs.shop(restore: "nonee")]
        let comparison = try Workflows.diff(old: "old.yaml", new: "new.yaml", options: TestCatalogs.options(files))
        #expect(comparison.sideFailedToLoad)
        #expect(comparison.fails(strict: false))
        #expect(comparison.report.diagnostics.map(\.rule) == ["invalid-value"])
        #expect(comparison.report.diagnostics.first?.message.hasPrefix("the new catalog does not load, so it cannot be compared: ") == true)
    }

    @Test("sides that cannot be compared stop the diff, naming the side")
    func sidesThatCannotBeCompared() {
        let files = ["old.yaml": TestCatalogs.shop(), "dir/shop.yaml": TestCatalogs.shop()]
        let missing = #expect(throws: WorkflowFailure.self) { try Workflows.diff(old: "old.yaml", new: "absent.yaml", options: TestCatalogs.options(files)) }
        #expect(missing?.message == "NEW: no such file or directory: absent.yaml")
        let mixed = #expect(throws: WorkflowFailure.self) { try Workflows.diff(old: "old.yaml", new: "dir", options: TestCatalogs.options(files)) }
        #expect(mixed?.message == "OLD (old.yaml) and NEW (dir) must be two catalog files or two directories")
        let noRevision = #expect(throws: WorkflowFailure.self) { try Workflows.diff(old: "gone.yaml", new: "old.yaml", options: TestCatalogs.options(files)) }
        #expect(noRevision?.message == "OLD: no such file or directory: gone.yaml (to read it from git, write REV:PATH, like main:gone.yaml)")
    }
}
