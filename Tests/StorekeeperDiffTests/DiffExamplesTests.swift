import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperDiff
import Testing

/// Every check's examples are its tests: a triggering pair is reported exactly
/// at its `↓` markers (old or new side), with the check's id and severity, and
/// by no other check at those places' expense; a non-triggering pair not at all.
@Suite struct DiffExamplesTests {
    static let ids = DiffCheck.all.map(\.id)

    struct Run {
        var oldLoad: [Diagnostic]
        var newLoad: [Diagnostic]
        var found: [Diagnostic]
        var expected: [String]
    }

    func run(_ check: DiffCheck, on example: DiffExample) -> Run {
        let (oldText, oldMarkers) = example.oldCatalog
        let (newText, newMarkers) = example.newCatalog
        let reader = InMemorySourceReader(["old.yaml": oldText, "new.yaml": newText])
        let old = CatalogLoader(reader: reader).load("old.yaml")
        let new = CatalogLoader(reader: reader).load("new.yaml")
        var found: [Diagnostic] = []
        if let oldCatalog = old.catalog, let newCatalog = new.catalog {
            found = check.check(DiffContext(old: oldCatalog, new: newCatalog))
        }
        let expected = oldMarkers.map { "old.yaml:\($0.line):\($0.column)" } + newMarkers.map { "new.yaml:\($0.line):\($0.column)" }
        return Run(oldLoad: old.diagnostics, newLoad: new.diagnostics, found: found, expected: expected.sorted())
    }

    @Test(arguments: DiffExamplesTests.ids)
    func triggeringExamplesAreReportedAtTheirMarkers(id: String) throws {
        let check = try #require(DiffCheck.all.first { $0.id == id })
        #expect(!check.triggering.isEmpty, "\(id) needs a triggering example")
        for example in check.triggering {
            let place = Testing.SourceLocation(fileID: example.file, filePath: example.file, line: example.line, column: 1)
            let result = run(check, on: example)
            #expect(result.oldLoad.filter { $0.severity == .error }.isEmpty, "the old side must load: \(result.oldLoad)", sourceLocation: place)
            #expect(result.newLoad.filter { $0.severity == .error }.isEmpty, "the new side must load: \(result.newLoad)", sourceLocation: place)
            #expect(!result.expected.isEmpty, "a triggering example marks where it is reported", sourceLocation: place)
            #expect(result.found.map { $0.location.description }.sorted() == result.expected, "\(result.found.map(\.message))", sourceLocation: place)
            #expect(result.found.allSatisfy { $0.rule == id && $0.severity == check.severity }, sourceLocation: place)
            #expect(result.found.allSatisfy { $0.message.contains("docs/diff.md#\(id)") }, "messages point at the docs", sourceLocation: place)
        }
    }

    @Test(arguments: DiffExamplesTests.ids)
    func nonTriggeringExamplesAreAccepted(id: String) throws {
        let check = try #require(DiffCheck.all.first { $0.id == id })
        #expect(!check.nonTriggering.isEmpty, "\(id) needs an example it accepts")
        for example in check.nonTriggering {
            let place = Testing.SourceLocation(fileID: example.file, filePath: example.file, line: example.line, column: 1)
            let result = run(check, on: example)
            #expect(result.oldLoad.filter { $0.severity == .error }.isEmpty, "the old side must load: \(result.oldLoad)", sourceLocation: place)
            #expect(result.newLoad.filter { $0.severity == .error }.isEmpty, "the new side must load: \(result.newLoad)", sourceLocation: place)
            #expect(result.expected.isEmpty, "an accepted example has no markers", sourceLocation: place)
            #expect(result.found.isEmpty, "\(result.found.map(\.message))", sourceLocation: place)
        }
    }

    /// Each triggering pair is that check's example: a check other than its own
    /// that also reports on it must be one the example cannot avoid, so each is listed here.
    @Test(arguments: DiffExamplesTests.ids)
    func triggeringExamplesShowOneThing(id: String) throws {
        let check = try #require(DiffCheck.all.first { $0.id == id })
        for example in check.triggering {
            let place = Testing.SourceLocation(fileID: example.file, filePath: example.file, line: example.line, column: 1)
            let others = DiffCheck.all.filter { $0.id != id }.flatMap { run($0, on: example).found }.map(\.rule)
            #expect(Set(others).isSubset(of: Self.unavoidable[id] ?? []), "other checks report on \(id)'s example: \(others)", sourceLocation: place)
        }
    }

    /// Checks that fire along with another's example because the change itself implies them.
    /// A feature removed with an owned product's unlock of it is both: the declaration is gone and buyers lose it.
    static let unavoidable: [String: Set<String>] = [
        "diff-feature-removed": ["diff-unlock-dropped"],
        "diff-unlock-dropped": ["diff-feature-removed"],
    ]

    @Test func idsAreUniquePrefixedKebabCaseAndRationalesCiteTheirSource() {
        let ids = DiffCheck.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
        for check in DiffCheck.all {
            #expect(check.id.hasPrefix("diff-"))
            #expect(check.id.allSatisfy { $0.isLowercase || $0 == "-" }, "\(check.id)")
            #expect(check.rationale.contains("("), "\(check.id) cites the guide, the queue's docs or Apple's")
            #expect(check.metadata.id == check.id && check.metadata.defaultSeverity == check.severity)
        }
        #expect(Set(CatalogDiff.metadata.map(\.id)) == Set(ids + [CatalogPairing.removedID, CatalogPairing.renamedID, CatalogPairing.movedID]))
    }
}
