import StorekeeperDiagnostics
import Testing

@Suite("Normalized diagnostics")
struct NormalizedTests {
    private static func at(_ line: Int, _ column: Int = 1) -> StorekeeperDiagnostics.SourceLocation {
        StorekeeperDiagnostics.SourceLocation(file: "shop.yaml", line: line, column: column)
    }

    private static func problem(_ line: Int, _ notes: [Diagnostic.Note] = []) -> Diagnostic {
        Diagnostic(.error, rule: "invalid-value", "'reciept' is not a valid persistence", at: at(line, 18), notes: notes)
    }

    @Test("sorts into reading order and drops exact repeats")
    func order() {
        let normalized = Diagnostic.normalized([Self.problem(9), Self.problem(3), Self.problem(9)])
        #expect(normalized == [Self.problem(3), Self.problem(9)])
    }

    @Test("makes one of those that differ only in their notes, with every note once, in the order met")
    func notesJoin() {
        // A value merged into two products, found through its own product and each of them.
        let two = Diagnostic.Note("merged into product 'com.example.two' here", at: Self.at(15, 5))
        let three = Diagnostic.Note("merged into product 'com.example.three' here", at: Self.at(18, 5))
        let normalized = Diagnostic.normalized([Self.problem(11), Self.problem(11, [two]), Self.problem(11, [three]), Self.problem(11, [two])])
        #expect(normalized == [Self.problem(11, [two, three])])
    }

    @Test("keeps apart those that differ in anything else")
    func different() {
        var warning = Self.problem(11)
        warning.severity = .warning
        var other = Self.problem(11)
        other.message = "another message"
        #expect(Diagnostic.normalized([Self.problem(11), warning, other]).count == 3)
    }
}
