import Foundation
import Testing

/// Each subcommand is argument declarations, one call into the workflows and
/// its output: the work lives in StorekeeperTooling (or Frontend/), where the
/// codegen tool and the plugins reach it too.
@Suite struct ThinCommandsTests {
    static let limit = 100

    @Test("every file in Sources/Tooling/storekeeper/Subcommands is under 100 lines")
    func subcommandsAreThin() throws {
        let folder = PackagePaths.root.appendingPathComponent("Sources/Tooling/storekeeper/Subcommands")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(names.contains("Diff.swift") && names.contains("Simulate.swift"), "the folder moved: \(folder.path)")
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            #expect(lines < Self.limit, "\(name) has \(lines) lines; move its work into StorekeeperTooling's workflows or a Frontend/ helper")
        }
    }
}
