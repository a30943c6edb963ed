import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

/// A catalog reached by two names is validated once, under its own name; a
/// YAML link found in a search that points at nothing is reported, not
/// passed over.
@Suite struct LinkedCatalogsTests {
    typealias Folder = IncludeRootTests.Folder

    /// A catalog with one error, to see how often and under which name it is reported.
    static let broken = CatalogFixture().with("price", "free").text

    /// Each diagnostic as `file:line:column rule`, with the folder's path left out.
    static func sites(_ report: ValidationReport, in folder: Folder) -> [String] {
        report.diagnostics.map { "\($0.location.file.replacingOccurrences(of: folder.path + "/", with: "")):\($0.location.line):\($0.location.column) \($0.rule)" }
    }

    @Test func aLinkBesideTheCatalogItNamesIsValidatedOnceUnderTheCatalogsName() throws {
        let folder = try Folder()
        try folder.write("a.yaml", Self.broken)
        try folder.link("link.yaml", to: "a.yaml")
        // A link whose name sorts first is passed over for the file too.
        try folder.write("z.yaml", Self.broken)
        try folder.link("0-link.yaml", to: "z.yaml")
        let report = try IncludeRootTests.validate([folder.path])
        #expect(Self.sites(report, in: folder) == ["a.yaml:13:12 invalid-price", "z.yaml:13:12 invalid-price"])
        #expect(report.filesChecked == 2)
    }

    @Test func aCatalogNamedByItsLinkAndItselfIsValidatedOnce() throws {
        let folder = try Folder()
        try folder.write("a.yaml", Self.broken)
        try folder.link("link.yaml", to: "a.yaml")
        let report = try IncludeRootTests.validate([folder.path + "/link.yaml", folder.path + "/a.yaml"])
        #expect(Self.sites(report, in: folder) == ["a.yaml:13:12 invalid-price"])
        #expect(report.filesChecked == 1)
    }

    @Test func aHardLinkIsTheSameFileToo() throws {
        let folder = try Folder()
        try folder.write("a.yaml", Self.broken)
        try FileManager.default.linkItem(atPath: folder.path + "/a.yaml", toPath: folder.path + "/b.yaml")
        let report = try IncludeRootTests.validate([folder.path])
        #expect(Self.sites(report, in: folder) == ["a.yaml:13:12 invalid-price"])
    }

    @Test func aLinkToNothingFoundInASearchIsAnErrorNamingItsTarget() throws {
        let folder = try Folder()
        try folder.write("shop.yaml", CatalogFixture().text)
        try folder.link("gone.yaml", to: "old/shop.yaml")
        // Not a YAML name: not a catalog, gone or not.
        try folder.link("notes.txt", to: "nowhere.txt")
        let report = try IncludeRootTests.validate([folder.path])
        #expect(Self.sites(report, in: folder) == ["gone.yaml:1:1 dangling-link"])
        #expect(report.diagnostics.first?.message
            == "this symbolic link points at nothing: its target, 'old/shop.yaml', does not exist; restore the file it names, or remove the link")
        #expect(report.fails())
    }

    @Test func linksInALoopAreLinksToNothing() throws {
        let folder = try Folder()
        try folder.link("a.yml", to: "b.yml")
        try folder.link("b.yml", to: "a.yml")
        // The folder holds no catalog, but what may have been one is reported rather than "no catalog found".
        let report = try IncludeRootTests.validate([folder.path])
        #expect(Self.sites(report, in: folder) == ["a.yml:1:1 dangling-link", "b.yml:1:1 dangling-link"])
        #expect(report.diagnostics.first?.message.contains("its target, 'b.yml', is a link that leads to no file") == true)
    }
}
