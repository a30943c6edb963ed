import Foundation
import Testing

import StorekeeperCore
import StorekeeperPlatform

/// A catalog path typed on the command line that is not UTF-8: Swift hands
/// the tool the name with U+FFFD in place of the bad byte, so it looked for
/// another name and said "no such file or directory" about a folder that
/// exists. It now says what the name is (escaped) and what to do.
@Suite("Path arguments that are not UTF-8")
struct NonUTF8PathArgumentTests {
    /// A folder named `d\xFF` holding a valid catalog, made with the raw byte.
    static func workspace() throws -> (Workspace, [UInt8]) {
        let workspace = try Workspace()
        let name = Array("d".utf8) + [0xFF]
        let path = Array(workspace.url.path.utf8) + Array("/".utf8) + name
        try #require(path.withUnsafeBufferPointer { buffer in
            let text = buffer.map { CChar(bitPattern: $0) } + [0]
            return mkdir(text, 0o755)
        } == 0)
        let catalog = Array(workspace.url.path.utf8) + Array("/".utf8) + name + Array("/catalog.yaml".utf8)
        let text = Array(validCatalog().utf8)
        let file = catalog.withUnsafeBufferPointer { buffer in fopen(buffer.map { CChar(bitPattern: $0) } + [0], "w") }
        let handle = try #require(file)
        _ = text.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, handle) }
        fclose(handle)
        return (workspace, name)
    }

    @Test("validate names the path's bytes and says it is not UTF-8, not 'no such file'")
    func validate() throws {
        let (workspace, name) = try Self.workspace()
        let tool = CLI.productsDirectory.appendingPathComponent("storekeeper").path
        let (status, stderr) = try RawProcess.run(tool, [Array("validate".utf8), name], in: workspace.url.path)
        #expect(status == 2, "\(stderr)")
        #expect(stderr.contains(#"the name given, d\xFF, is not valid UTF-8"#), "\(stderr)")
        #expect(stderr.contains("rename the file or folder in UTF-8"), "\(stderr)")
        #expect(!stderr.contains("no such file"), "\(stderr)")
    }

    @Test("diff says which side's path is not UTF-8", arguments: [true, false])
    func diff(oldSide: Bool) throws {
        let (workspace, name) = try Self.workspace()
        _ = try workspace.write("other/catalog.yaml", validCatalog())
        let tool = CLI.productsDirectory.appendingPathComponent("storekeeper").path
        let other = Array("other".utf8)
        let (status, stderr) = try RawProcess.run(tool, [Array("diff".utf8)] + (oldSide ? [name, other] : [other, name]), in: workspace.url.path)
        #expect(status == 2, "\(stderr)")
        #expect(stderr.contains((oldSide ? "OLD: " : "NEW: ") + #"the name given, d\xFF, is not valid UTF-8"#), "\(stderr)")
    }

    /// Every other command that reads a path typed by the user: before, the
    /// repaired name (U+FFFD) was opened, which may be another file.
    @Test("compile, explain, export, import and simulate name a path that is not UTF-8", arguments: [
        "compile CATALOG", "explain CATALOG", "export CATALOG --format storekit", "export shop.yaml --format storekit --base CATALOG",
        "import CATALOG", "simulate CATALOG scenario.yaml", "simulate shop.yaml CATALOG", "compile shop.yaml --config CATALOG",
    ])
    func otherCommands(_ command: String) throws {
        let (workspace, name) = try Self.workspace()
        _ = try workspace.write("shop.yaml", validCatalog())
        _ = try workspace.write("scenario.yaml", "steps: []\n")
        let path = name + Array("/catalog.yaml".utf8)
        let arguments = command.split(separator: " ").map { $0 == "CATALOG" ? path : Array($0.utf8) }
        let tool = CLI.productsDirectory.appendingPathComponent("storekeeper").path
        let (status, stderr) = try RawProcess.run(tool, arguments, in: workspace.url.path)
        #expect(status == 2, "\(stderr)")
        #expect(stderr.contains(#"the name given, d\xFF/catalog.yaml, is not valid UTF-8"#), "\(stderr)")
    }
}
