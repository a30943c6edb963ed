import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

/// What a review of the include root found: a fragment whose real path
/// could not be resolved was read anyway, a hidden entry inside the folder
/// (`.git/config`) was read and quoted, and paths were compared by Swift's
/// canonical equivalence rather than by their bytes.
@Suite struct IncludeRootReviewTests {
    typealias Folder = IncludeRootTests.Folder

    /// A link whose target cannot be resolved may still open (a magic link
    /// like /proc/self/fd/N to a deleted file): it is refused, not left to the read.
    @Test func aLinkThatCannotBeResolvedIsRefused() throws {
        let folder = try Folder()
        try folder.write("shop/catalog.yaml", IncludeRootTests.catalog(including: "extra.yaml"))
        try folder.link("shop/extra.yaml", to: folder.path + "/nowhere/secrets.yaml")
        let result = CatalogLoader().load(folder.path + "/shop/catalog.yaml")
        try expectDiagnostic(
            result.diagnostics, "include", at: 9, 11, file: folder.path + "/shop/catalog.yaml",
            mentions: ["'extra.yaml' cannot be checked", "symbolic link whose target cannot be resolved"])
        #expect(result.files == [folder.path + "/shop/catalog.yaml"])
    }

    /// A file that is simply missing still gets the read's own message.
    @Test func aMissingFragmentIsStillReportedAsMissing() throws {
        let folder = try Folder()
        try folder.write("shop/catalog.yaml", IncludeRootTests.catalog(including: "extra.yaml"))
        let result = CatalogLoader().load(folder.path + "/shop/catalog.yaml")
        #expect(result.diagnostics.map(\.rule) == ["include"])
        #expect(result.diagnostics.first?.message.contains("cannot be checked") == false)
    }

    @Test(arguments: [".git/config.yaml", ".secrets/db.yaml"])
    func aHiddenEntryInsideIsRefusedWhetherLinkedOrNamed(hidden: String) throws {
        let folder = try Folder()
        try folder.write("shop/\(hidden)", IncludeRootTests.secret)
        try folder.link("shop/extra.yaml", to: hidden)
        for include in ["extra.yaml", hidden] {
            try folder.write("shop/catalog.yaml", IncludeRootTests.catalog(including: include))
            let result = CatalogLoader().load(folder.path + "/shop/catalog.yaml")
            try expectDiagnostic(
                result.diagnostics, "include", at: 9, 11, file: folder.path + "/shop/catalog.yaml",
                mentions: ["is or leads to a hidden entry (\(hidden.split(separator: "/")[0]))"])
            IncludeRootTests.expectNothingFrom(result.diagnostics, file: String(hidden.split(separator: "/").last ?? ""), text: "hunter2")
        }
        // A folder search stops at the link, before reading it.
        #expect(throws: ValidationInputError.self) { _ = try IncludeRootTests.validate([folder.path + "/shop"]) }
    }

    /// `café` composed and `café` decomposed are two folders on Linux, and
    /// one String in Swift: the check must not take one for the other.
    @Test func pathsAreComparedByTheirBytes() {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(composed == decomposed)  // Swift's equality, which the check must not use
        #expect(!SourcePath.isInside("\(decomposed)/secrets.yaml", root: composed))
        #expect(SourcePath.isInside("\(composed)/frag.yaml", root: composed))
    }

    @Test func aRootOfParentFoldersHoldsNothingThatClimbsFurther() {
        #expect(SourcePath.isInside("../x.yaml", root: ".."))
        #expect(!SourcePath.isInside("../../shared/x.yaml", root: ".."))
        #expect(!SourcePath.isInside("../../../x.yaml", root: "../.."))
        #expect(SourcePath.isInside("../../a/x.yaml", root: "../.."))
    }

    @Test func hiddenComponentsAreFoundBelowTheRootOnly() {
        #expect(SourcePath.hiddenComponent(of: "/home/.me/shop/.git/config", below: "/home/.me/shop") == ".git")
        #expect(SourcePath.hiddenComponent(of: "/home/.me/shop/fragments/a.yaml", below: "/home/.me/shop") == nil)
        #expect(SourcePath.hiddenComponent(of: "/.x/a", below: "/") == ".x")
    }
}

/// Two catalogs whose names differ only in Unicode normalisation are two
/// files: a folder search validated one and skipped the other, exit 0.
@Suite struct CanonicallyEquivalentNamesTests {
    @Test func bothCatalogsOfAFolderAreValidated() throws {
        let folder = try IncludeRootTests.Folder()
        try folder.write("caf\u{E9}.yaml", CatalogFixture().text)
        try folder.write("cafe\u{301}.yaml", CatalogFixture().text.replacingOccurrences(of: "catalog: test-shop", with: "catalog: test-shop\nformat: 9"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        try #require(names.count == 2, "the file system keeps both spellings")
        let report = try IncludeRootTests.validate([folder.path])
        #expect(report.filesChecked == 2)
        #expect(report.diagnostics.contains { $0.rule == "unsupported-format" })
    }
}
