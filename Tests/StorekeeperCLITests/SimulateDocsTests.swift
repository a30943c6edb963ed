import Foundation
import Testing

/// The traces the README and docs/simulate.md show are the command's real output.
@Suite("simulate: the documented traces")
struct SimulateDocsTests {
    static let catalog = "Catalogs/rocket-racer/catalog.yaml"
    static let scenario = "Catalogs/rocket-racer/scenarios/testing-steps.yaml"

    /// The first fenced block of `document` that starts with `start`.
    static func block(in document: String, startingWith start: String) throws -> String {
        let open = try #require(document.range(of: "```\n" + start))
        let rest = document[open.upperBound...]
        let close = try #require(rest.range(of: "```"))
        return start + String(rest[..<close.lowerBound])
    }

    @Test("README's and docs/simulate.md's trace excerpts appear, line for line, in the shipped scenario's trace")
    func excerptsAreCurrent() async throws {
        let result = try await CLI.run(["simulate", Self.catalog, Self.scenario], in: PackagePaths.root)
        #expect(result.status == 0, "\(result)")
        let readme = try String(contentsOf: PackagePaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let guide = try String(contentsOf: PackagePaths.root.appendingPathComponent("docs/simulate.md"), encoding: .utf8)
        let excerpts = try [
            Self.block(in: readme, startingWith: "[7] buy com.example.rocketracer.boosts.5"),
            Self.block(in: guide, startingWith: "[2] buy com.example.rocketracer.coins.500"),
        ]
        for excerpt in excerpts {
            #expect(result.stdout.contains(excerpt), "stale excerpt; the trace now says:\n\(result.stdout.prefix(4000))")
        }
    }
}
