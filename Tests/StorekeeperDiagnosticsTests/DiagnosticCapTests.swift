import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite("Diagnostic cap")
struct DiagnosticCapTests {
    private static let origin = SourceLocation(file: "shop.yaml", line: 1, column: 1)

    private static func diagnostic(_ severity: Severity, _ line: Int) -> Diagnostic {
        Diagnostic(severity, rule: "display-length", "problem \(line)", at: SourceLocation(file: "shop.yaml", line: line, column: 1))
    }

    private static func capped(_ diagnostics: [Diagnostic], limit: Int) -> [Diagnostic] {
        DiagnosticCap.capped(diagnostics, limit: limit, rule: "too-many-problems", source: "the policy rules", scope: "a catalog", at: origin)
    }

    @Test("at most the limit, nothing changes")
    func underTheLimit() {
        let diagnostics = (1...3).map { Self.diagnostic(.warning, $0) }
        #expect(Self.capped(diagnostics, limit: 3) == diagnostics)
    }

    @Test("past the limit, errors are kept first and the rest counted by severity, as an error when an error was left out")
    func errorsFirst() {
        let diagnostics = (1...4).map { Self.diagnostic(.warning, $0) } + (5...7).map { Self.diagnostic(.error, $0) } + [Self.diagnostic(.note, 8)]
        let capped = Self.capped(diagnostics, limit: 2)
        #expect(capped.prefix(2).map(\.message) == ["problem 5", "problem 6"])
        #expect(capped.count == 3)
        #expect(capped.last == Diagnostic(
            .error, rule: "too-many-problems",
            "6 more problems (1 error, 4 warnings, 1 note) were found by the policy rules and not listed (at most 2 are listed for a catalog); fix those listed and run again",
            at: Self.origin))
    }

    @Test("when only warnings are left out, the count is a warning: a run fails only under --strict, as with all listed")
    func onlyWarningsLeftOut() {
        let diagnostics = [Self.diagnostic(.error, 1)] + (2...5).map { Self.diagnostic(.warning, $0) }
        let capped = Self.capped(diagnostics, limit: 3)
        #expect(capped.map(\.severity) == [.error, .warning, .warning, .warning])
        #expect(capped.last?.message.hasPrefix("2 more problems (2 warnings) were found") == true)
        #expect(ValidationReport(diagnostics: capped, filesChecked: 1).errorCount == 1)
    }

    @Test("kept as they come: the first are kept, the rest counted by severity, and a part's count survives joining the whole")
    func streaming() {
        var part = DiagnosticCap(ceiling: 2)
        for line in 1...3 { part.append(Self.diagnostic(.warning, line)) }
        part.append(Self.diagnostic(.error, 4))
        #expect(part.kept.map(\.message) == ["problem 1", "problem 2"])
        #expect(part.leftOutCount == 2 && part.highestLeftOut == .error && part.leftOutBySeverity == "1 error, 1 warning")
        var whole = DiagnosticCap(ceiling: 3)
        whole.append(Self.diagnostic(.note, 5))
        whole.append(contentsOf: part)
        #expect(whole.kept.map(\.message) == ["problem 5", "problem 1", "problem 2"])
        #expect(whole.leftOutCount == 2 && whole.leftOutBySeverity == "1 error, 1 warning")
        whole.append(contentsOf: part)
        #expect(whole.leftOutCount == 6 && whole.leftOutBySeverity == "2 errors, 4 warnings")
        #expect(DiagnosticCap().highestLeftOut == nil)
    }

    @Test("a full cap still keeps another cap's count, so that the number it gives is not lost")
    func anotherCapsCountIsKept() {
        // A file's YAML problems, capped in the YAML layer, then joining the catalog's cap.
        let fileCount = Diagnostic(
            .error, rule: DiagnosticCap.countingRule, "2000 more problems (2000 errors) were found in this file and not listed",
            at: Self.origin)
        var catalog = DiagnosticCap(ceiling: 2)
        for line in 1...2 { catalog.append(Self.diagnostic(.error, line)) }
        catalog.append(fileCount)
        catalog.append(Self.diagnostic(.error, 3))
        #expect(catalog.kept == [Self.diagnostic(.error, 1), Self.diagnostic(.error, 2), fileCount])
        #expect(catalog.leftOutCount == 1)
        // It takes no room: kept first, it leaves the cap's whole ceiling to the problems.
        var first = DiagnosticCap(ceiling: 1)
        first.append(fileCount)
        first.append(Self.diagnostic(.error, 1))
        #expect(first.kept == [fileCount, Self.diagnostic(.error, 1)] && first.leftOutCount == 0)
        // So with them all given at once.
        let capped = Self.capped([Self.diagnostic(.warning, 4), fileCount, Self.diagnostic(.error, 5)], limit: 1)
        #expect(capped.map(\.message) == [
            fileCount.message, "problem 5",
            "1 more problems (1 warning) were found by the policy rules and not listed (at most 1 are listed for a catalog); fix those listed and run again",
        ])
        #expect(Self.capped([fileCount, Self.diagnostic(.error, 5)], limit: 1).map(\.message) == [fileCount.message, "problem 5"])
    }

    @Test("a part's diagnostics can be changed once the part is done, those past the ceiling being gone")
    func updateKept() {
        var cap = DiagnosticCap(ceiling: 3)
        cap.append(Self.diagnostic(.error, 1))
        let start = cap.kept.count
        for line in 2...5 { cap.append(Self.diagnostic(.error, line)) }
        cap.updateKept(from: start) { $0.notes.append(Diagnostic.Note("here", at: Self.origin)) }
        #expect(cap.kept.map(\.notes.count) == [0, 1, 1])
        cap.updateKept(from: 7) { $0.message = "changed" }
        #expect(!cap.kept.contains { $0.message == "changed" })
    }

    @Test("the limit is the format checks' 10,000 per catalog")
    func limit() {
        #expect(DiagnosticCap.limit == 10_000)
    }
}
