import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing
import StorekeeperTestSupport

/// Includes stay in the folder of the catalog file, judged by where files
/// really are (symbolic links resolved), whichever way the catalog is named;
/// a refused file is never read, so no report can quote it.
@Suite struct IncludeRootTests {
    /// A secret a linked fragment could lead to.
    static let secret = "db_password: hunter2\n"

    /// A fresh folder on disk, removed when the test ends.
    final class Folder {
        let path: String

        init() throws {
            path = try ScratchFolder.create(prefix: "storekeeper-include").path
        }

        deinit { ScratchFolder.remove(URL(fileURLWithPath: path)) }

        func write(_ name: String, _ text: String) throws {
            let file = path + "/" + name
            try FileManager.default.createDirectory(atPath: SourcePath.directory(of: file), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        }

        /// A symbolic link at `name` whose target is `destination`, as written.
        func link(_ name: String, to destination: String) throws {
            let file = path + "/" + name
            try FileManager.default.createDirectory(atPath: SourcePath.directory(of: file), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: destination)
        }
    }

    static func catalog(including paths: String) -> String {
        CatalogFixture().addingHeader("include: [\(paths)]").text
    }

    /// Validates `paths` as `storekeeper validate` does, from the file system.
    static func validate(_ paths: [String]) throws -> ValidationReport {
        try CatalogValidator(loader: CatalogLoader(reader: FileSystemReader())).validate(paths)
    }

    /// No diagnostic names `file` or quotes `text` in its message or notes.
    static func expectNothingFrom(_ diagnostics: [Diagnostic], file: String, text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for diagnostic in diagnostics {
            #expect(!diagnostic.location.file.hasSuffix(file), "\(diagnostic)", sourceLocation: sourceLocation)
            #expect(!diagnostic.message.contains(text), "\(diagnostic)", sourceLocation: sourceLocation)
            for note in diagnostic.notes {
                #expect(!note.location.file.hasSuffix(file) && !note.message.contains(text), "\(note)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aFragmentLinkedToAFileOutsideIsRefusedAndNeverRead() throws {
        let folder = try Folder()
        try folder.write("elsewhere/secrets.yaml", Self.secret)
        try folder.write("shop/catalog.yaml", Self.catalog(including: "fragments/extra.yaml"))
        try folder.link("shop/fragments/extra.yaml", to: folder.path + "/elsewhere/secrets.yaml")
        let result = CatalogLoader().load(folder.path + "/shop/catalog.yaml")
        let report = try Self.validate([folder.path + "/shop/catalog.yaml"])
        for diagnostics in [result.diagnostics, report.diagnostics] {
            expectExactly(diagnostics, sites: [("include", folder.path + "/shop/catalog.yaml", 9, 11)])
            try expectDiagnostic(
                diagnostics, "include", at: 9, 11, file: folder.path + "/shop/catalog.yaml",
                mentions: ["'fragments/extra.yaml' leads out of the folder of the catalog file", "symbolic link", "secrets.yaml"])
            Self.expectNothingFrom(diagnostics, file: "secrets.yaml", text: "hunter2")
        }
        #expect(result.files == [folder.path + "/shop/catalog.yaml"])
        #expect(report.filesChecked == 1)
        // Searching the folder meets the link itself, which might be a catalog: the run stops there,
        // before reading it.
        #expect {
            _ = try Self.validate([folder.path + "/shop"])
        } throws: { error in
            guard case ValidationInputError.unreadable(let path, let reason) = error else { return false }
            return path == folder.path + "/shop/fragments/extra.yaml" && reason.contains("symbolic link") && !reason.contains("hunter2")
        }
    }

    @Test func aFragmentInALinkedFolderThatLeadsOutsideIsRefused() throws {
        let folder = try Folder()
        try folder.write("elsewhere/config/extra.yaml", Self.secret)
        try folder.write("shop/catalog.yaml", Self.catalog(including: "fragments/extra.yaml"))
        try folder.link("shop/fragments", to: "../elsewhere/config")
        let result = CatalogLoader().load(folder.path + "/shop/catalog.yaml")
        expectExactly(result.diagnostics, sites: [("include", folder.path + "/shop/catalog.yaml", 9, 11)])
        try expectDiagnostic(result.diagnostics, "include", at: 9, 11, file: folder.path + "/shop/catalog.yaml", mentions: ["symbolic link"])
        Self.expectNothingFrom(result.diagnostics, file: "extra.yaml", text: "hunter2")
    }

    @Test func linksThatStayInsideAreFollowed() throws {
        let folder = try Folder()
        try folder.write("shop/catalog.yaml", Self.catalog(including: "linked/a.yaml, b.yaml"))
        try folder.write("shop/parts/a.yaml", IncludesTests.fragment(id: "com.example.shop.a", name: "A"))
        try folder.write("shop/parts/b.yaml", IncludesTests.fragment(id: "com.example.shop.b", name: "B"))
        try folder.link("shop/linked", to: "parts")
        try folder.link("shop/b.yaml", to: "parts/b.yaml")
        let result = CatalogLoader().load(folder.path + "/shop/catalog.yaml")
        expectClean(result)
        #expect(result.catalog?.products.map(\.id.value) == ["com.example.shop.item", "com.example.shop.a", "com.example.shop.b"])
        // Through its folder too.
        #expect(try Self.validate([folder.path + "/shop"]).diagnostics.isEmpty)
    }

    /// One fragment reached by two names (a symbolic or a hard link inside the
    /// folder) is read once: its products were reported as duplicates of
    /// themselves, and its bytes counted twice against --max-total-size.
    @Test(arguments: [false, true])
    func aFragmentReachedThroughALinkIsReadAndCountedOnce(hard: Bool) throws {
        let folder = try Folder()
        let catalog = Self.catalog(including: "f/a.yaml, f/link.yaml")
        let fragment = IncludesTests.fragment(id: "com.example.shop.a", name: "A")
        try folder.write("shop/catalog.yaml", catalog)
        try folder.write("shop/f/a.yaml", fragment)
        if hard {
            try FileManager.default.linkItem(atPath: folder.path + "/shop/f/a.yaml", toPath: folder.path + "/shop/f/link.yaml")
        } else {
            try folder.link("shop/f/link.yaml", to: "a.yaml")
        }
        // Room for the catalog and the fragment once, not twice.
        let total = catalog.utf8.count + fragment.utf8.count + fragment.utf8.count / 2
        let result = CatalogLoader(limits: YAMLLimits(maxFileSize: 4096, maxTotalSize: total)).load(folder.path + "/shop/catalog.yaml")
        expectClean(result)
        #expect(result.catalog?.products.map(\.id.value) == ["com.example.shop.item", "com.example.shop.a"])
        #expect(result.files == [folder.path + "/shop/catalog.yaml", folder.path + "/shop/f/a.yaml"])
    }

    @Test func aCatalogNamedThroughALinkedFolderKeepsItsFragments() throws {
        let folder = try Folder()
        try folder.write("real/shop/catalog.yaml", Self.catalog(including: "fragments/a.yaml"))
        try folder.write("real/shop/fragments/a.yaml", IncludesTests.fragment(id: "com.example.shop.a", name: "A"))
        try folder.link("alias", to: "real/shop")
        expectClean(CatalogLoader().load(folder.path + "/alias/catalog.yaml"))
        #expect(try Self.validate([folder.path + "/alias"]).diagnostics.isEmpty)
    }

    /// `../` leaves the catalog's folder whether the catalog file or a folder above it is named:
    /// before, naming the folder above let it through, and naming the file refused it.
    @Test func aParentFolderIncludeIsRefusedHoweverTheCatalogIsNamed() throws {
        let folder = try Folder()
        try folder.write("repo/shop/catalog.yaml", Self.catalog(including: "../shared/extra.yaml"))
        try folder.write("repo/shared/extra.yaml", IncludesTests.fragment(id: "com.example.shop.a", name: "A"))
        let catalog = folder.path + "/repo/shop/catalog.yaml"
        var reports: [[Diagnostic]] = []
        for named in [catalog, folder.path + "/repo/shop", folder.path + "/repo"] {
            let diagnostics = try Self.validate([named]).diagnostics
            expectExactly(diagnostics, sites: [("include", catalog, 9, 11)])
            try expectDiagnostic(diagnostics, "include", at: 9, 11, file: catalog, mentions: ["'../shared/extra.yaml' leaves the folder of the catalog file"])
            reports.append(diagnostics)
        }
        expectExactly(CatalogLoader().load(catalog).diagnostics, sites: [("include", catalog, 9, 11)])
        #expect(reports.allSatisfy { $0 == reports[0] })
    }

    @Test func aCatalogLinkInASearchedFolderThatLeadsOutsideStopsTheRun() throws {
        let folder = try Folder()
        try folder.write("elsewhere/catalog.yaml", "catalog: secret\n" + Self.secret + "bad: [\n")
        try folder.write("store/shop.yaml", CatalogFixture().text)
        try folder.link("store/linked.yaml", to: "../elsewhere/catalog.yaml")
        #expect {
            _ = try Self.validate([folder.path + "/store"])
        } throws: { error in
            guard case ValidationInputError.unreadable(let path, let reason) = error else { return false }
            return path == folder.path + "/store/linked.yaml" && reason.contains("symbolic link") && !reason.contains("hunter2")
        }
        // Named itself, the file is the user's choice, and is read.
        #expect(try Self.validate([folder.path + "/store/linked.yaml"]).diagnostics.contains { $0.rule == "yaml-syntax" })
    }

    // MARK: File names that are not UTF-8

    @Test func aNameThatIsNotUTF8StopsTheSearchNamingItsBytes() throws {
        let folder = try Folder()
        try folder.write("store/shop.yaml", CatalogFixture().text)
        // `caf\xe9.yaml` (Latin-1): Foundation would read the name as `caf\u{FFFD}.yaml`, another file.
        let name = Array("\(folder.path)/store/caf".utf8) + [0xE9] + Array(".yaml".utf8)
        let descriptor = (name + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        try #require(descriptor >= 0)
        close(descriptor)
        #expect {
            _ = try Self.validate([folder.path + "/store"])
        } throws: { error in
            guard case ValidationInputError.unreadable(let path, let reason) = error else { return false }
            return path == folder.path + "/store" && reason.contains("'caf\\xe9.yaml'") && reason.contains("not valid UTF-8")
        }
    }

    @Test func aHiddenNameThatIsNotUTF8IsPassedOverLikeEveryHiddenName() throws {
        let folder = try Folder()
        try folder.write("store/shop.yaml", CatalogFixture().text)
        let name = Array("\(folder.path)/store/.caf".utf8) + [0xE9]
        let descriptor = (name + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        try #require(descriptor >= 0)
        close(descriptor)
        #expect(try Self.validate([folder.path + "/store"]).filesChecked == 1)
    }

    @Test(arguments: [
        ([0x63, 0x61, 0x66, 0xE9], "'caf\\xe9'"),
        (Array("café.yaml".utf8), "'café.yaml'"),
        ([0x61, 0x5C, 0x0A, 0xFF, 0xC3], "'a\\\\\\x0a\\xff\\xc3'"),
    ])
    func fileNameBytesAreEscaped(bytes: [UInt8], escaped: String) {
        #expect(FileName.escaped(bytes) == escaped)
    }
}
