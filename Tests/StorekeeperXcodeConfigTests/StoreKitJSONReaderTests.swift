import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperXcodeConfig
import Testing

/// The JSON layer: positions, numbers with a fraction, and located errors.
@Suite struct StoreKitJSONReaderTests {
    func read(_ text: String) throws(StoreKitSyntaxError) -> StoreKitNode {
        try StoreKitJSONReader().read(Array(text.utf8), file: "test.storekit")
    }

    @Test func keysAndValuesAreLocatedByLineAndColumnInUnicodeScalars() throws {
        let text = "{\n  \"é\" : \"ça\",\r\n  \"list\" : [ 1, {\"k\" : null} ]\n}"
        let root = try read(text)
        let accent = try #require(root["é"])
        #expect(accent.keyRange.start.line == 2 && accent.keyRange.start.column == 3)
        #expect(accent.keyRange.end.column == 6, "a key's range covers its quotes")
        #expect(accent.value.location.line == 2 && accent.value.location.column == 9)
        #expect(accent.value.range.end.column == 13)
        let list = try #require(root["list"])
        #expect(list.keyRange.start.line == 3, "CR LF is one line break")
        let elements = try #require(list.value.elements)
        #expect(elements[0].location.column == 14)
        let inner = try #require(elements[1]["k"])
        #expect(inner.keyRange.start.column == 18 && inner.value.location.column == 24)
        #expect(root.value == .object(["é": .string("ça"), "list": .array([.integer(1), .object(["k": .null])])]))
    }

    @Test func numbersWithAFractionOrAnExponentAreKeptAsWrittenAndPositionsStay() throws {
        let text = #"{"_lastSynchronizedDate" : 767105909.83790004, "e" : -1.5e3, "s" : "1.5", "after" : true}"#
        let root = try read(text)
        #expect(root["_lastSynchronizedDate"]?.value.value == .number("767105909.83790004"))
        #expect(root["e"]?.value.value == .number("-1.5e3"))
        #expect(root["s"]?.value.value == .string("1.5"), "a string that looks like a number stays a string")
        #expect(root["after"]?.keyRange.start.column == position(of: "\"after\"", in: text)?.column)
        #expect(root["after"]?.keyRange.start.column == 75)
        #expect(StoreKitWriter().write(root.value).contains("\"_lastSynchronizedDate\" : 767105909.83790004,"))
    }

    @Test(arguments: [
        ("{\"a\" : 1,}", 1, 10, "trailing commas"),
        ("{\n  \"a\" : 1,\n  \"a\" : 2\n}", 3, 3, "duplicate key 'a'"),
        ("not json", 1, 1, "expected a JSON value"),
        ("{\"price\" : 1.}", 1, 12, "fraction"),
    ])
    func notJSONIsALocatedError(text: String, line: Int, column: Int, words: String) throws {
        do {
            _ = try read(text)
            Issue.record("no error")
        } catch {
            let diagnostic = error.diagnostic
            #expect(diagnostic.rule == StoreKitRuleID.syntax && diagnostic.severity == .error)
            #expect(diagnostic.location.file == "test.storekit" && diagnostic.location.line == line && diagnostic.location.column == column, "\(diagnostic.location)")
            #expect(diagnostic.message.contains(words), "\(diagnostic.message)")
            #expect(diagnostic.message.contains("not valid JSON"))
        }
    }

    @Test func tooDeepAndTooLargeAreRefused() {
        #expect(throws: StoreKitSyntaxError.self) { try StoreKitJSONReader(maxDepth: 3).read(Array("[[[[1]]]]".utf8), file: "x") }
        #expect(throws: StoreKitSyntaxError.self) { try StoreKitJSONReader(maxSize: 4).read(Array("[1, 2]".utf8), file: "x") }
    }
}
