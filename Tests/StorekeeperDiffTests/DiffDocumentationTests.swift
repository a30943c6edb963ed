import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperDiff
import Testing

/// docs/diff.md holds, between two markers, what `DiffDocumentation` generates
/// from the checks: every check, its rationale and its examples.
@Suite struct DiffDocumentationTests {
    static let path = DiffFixtures.root + "/docs/diff.md"

    @Test func theGeneratedPartOfDocsDiffIsUpToDate() throws {
        let written = String(decoding: try FileSystemReader().read(Self.path, limit: 1 << 22), as: UTF8.self)
        let begin = try #require(written.range(of: DiffDocumentation.beginMarker), "docs/diff.md has the begin marker")
        let end = try #require(written.range(of: DiffDocumentation.endMarker + "\n"), "docs/diff.md has the end marker")
        let current = String(written[begin.lowerBound..<end.upperBound])
        let generated = DiffDocumentation.markdown()
        // Regenerating is asked for by an environment variable (see `regenerateCommand`).
        if current != generated, ProcessInfo.processInfo.environment["STOREKEEPER_WRITE_DOCS"] == "1" {
            try written.replacingCharacters(in: begin.lowerBound..<end.upperBound, with: generated)
                .write(toFile: Self.path, atomically: true, encoding: .utf8)
            return
        }
        #expect(current == generated, "docs/diff.md is stale; regenerate it: \(DiffDocumentation.regenerateCommand)")
    }

    @Test func everyCheckHasARowASectionAndItsExamples() {
        let markdown = DiffDocumentation.markdown()
        for check in DiffCheck.all {
            #expect(markdown.contains("| [`\(check.id)`](#\(check.id)) | \(check.severity.rawValue) |"))
            #expect(markdown.contains("\n### \(check.id)\n"))
            for example in check.triggering + check.nonTriggering {
                #expect(markdown.contains("# old\n" + example.shown(old: true) + "\n```"))
                #expect(markdown.contains("# new\n" + example.shown(old: false) + "\n```"))
                #expect(!example.shown(old: false).contains("↓"))
            }
        }
    }

    @Test func theListHasOneAlignedLinePerCheck() throws {
        let lines = DiffDocumentation.list().split(separator: "\n").map(String.init)
        // The checks of a pair, and the findings of pairing directories (removed, renamed, moved).
        #expect(lines.count == DiffCheck.all.count + 3)
        #expect(lines.contains { $0.hasPrefix("diff-catalog-renamed ") && $0.contains(" note ") })
        var columns = Set<Int>()
        for (line, check) in zip(lines, CatalogDiff.metadata) {
            #expect(line.hasPrefix(check.id + " "))
            let summary = try #require(line.range(of: check.summary))
            columns.insert(line.distance(from: line.startIndex, to: summary.lowerBound))
        }
        #expect(columns.count == 1)
    }
}
