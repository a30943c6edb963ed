import Foundation
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
import Testing

@Suite("JSON reporter")
struct JSONReporterTests {
    @Test("renders the report as a pretty-printed document with members in a fixed order")
    func golden() {
        #expect(
            JSONReporter().render(Fixture.report) == """
                {
                  "version": 1,
                  "diagnostics": [
                    {
                      "file": "Catalogs/game.yaml",
                      "line": 4,
                      "column": 9,
                      "endLine": 4,
                      "endColumn": 26,
                      "severity": "error",
                      "rule": "duplicate-id",
                      "message": "duplicate product id 'com.example.coins'",
                      "notes": [
                        {
                          "file": "Catalogs/game.yaml",
                          "line": 2,
                          "column": 9,
                          "message": "the first definition is here"
                        }
                      ]
                    },
                    {
                      "file": "Catalogs/game.yaml",
                      "line": 5,
                      "column": 5,
                      "endLine": 5,
                      "endColumn": 9,
                      "severity": "error",
                      "rule": "unknown-key",
                      "message": "unknown key 'pric' in a product; did you mean 'price'?",
                      "notes": []
                    },
                    {
                      "file": "Catalogs/other.yaml",
                      "line": 1,
                      "column": 1,
                      "endLine": 1,
                      "endColumn": 1,
                      "severity": "warning",
                      "rule": "empty-title",
                      "message": "'title' is empty",
                      "notes": []
                    }
                  ],
                  "summary": {
                    "files": 3,
                    "errors": 2,
                    "warnings": 1,
                    "notes": 0
                  }
                }

                """)
    }

    @Test("renders an empty report")
    func empty() {
        #expect(
            JSONReporter().render(ValidationReport(diagnostics: [], filesChecked: 0)) == """
                {
                  "version": 1,
                  "diagnostics": [],
                  "summary": {
                    "files": 0,
                    "errors": 0,
                    "warnings": 0,
                    "notes": 0
                  }
                }

                """)
    }

    @Test("renders on one line with a compact writer")
    func compact() {
        let diagnostic = Diagnostic(.note, rule: "hint", "say \"hi\"", at: Fixture.at("a.yaml", 2, 3))
        let report = ValidationReport(diagnostics: [diagnostic], filesChecked: 1)
        #expect(
            JSONReporter(writer: JSONWriter(indentation: nil)).render(report)
                == #"{"version":1,"diagnostics":[{"file":"a.yaml","line":2,"column":3,"endLine":2,"#
                + #""endColumn":3,"severity":"note","rule":"hint","message":"say \"hi\"","notes":[]}],"#
                + #""summary":{"files":1,"errors":0,"warnings":0,"notes":1}}"# + "\n")
    }

    @Test("produces JSON that a standard parser reads back")
    func parses() throws {
        let awkward = Diagnostic(
            .error, rule: "weird", "quote \" backslash \\ newline \n tab \t bell \u{7} Café ☕️",
            at: Fixture.range(1, 2, to: 4, in: "dir/\u{1F}odd \"name\".yaml"),
            notes: [Diagnostic.Note("über", at: Fixture.at("x.yaml", 9, 8))])
        let report = ValidationReport(
            diagnostics: [awkward, Fixture.unknownKey, Fixture.emptyTitle], filesChecked: 2)
        let text = JSONReporter().render(report)
        #expect(text.hasSuffix("}\n"))

        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let root = try #require(parsed as? [String: Any])
        #expect(Set(root.keys) == ["version", "diagnostics", "summary"])
        #expect(root["version"] as? Int == 1)

        let diagnostics = try #require(root["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 3)
        let first = diagnostics[0]
        #expect(first["file"] as? String == "Catalogs/game.yaml")
        #expect(first["rule"] as? String == "unknown-key")
        let weird = try #require(diagnostics.first { $0["rule"] as? String == "weird" })
        #expect(weird["file"] as? String == "dir/\u{1F}odd \"name\".yaml")
        #expect(weird["message"] as? String == awkward.message)
        #expect(weird["line"] as? Int == 1)
        #expect(weird["column"] as? Int == 2)
        #expect(weird["endLine"] as? Int == 1)
        #expect(weird["endColumn"] as? Int == 4)
        #expect(weird["severity"] as? String == "error")
        let notes = try #require(weird["notes"] as? [[String: Any]])
        #expect(notes.count == 1)
        #expect(notes.first?["message"] as? String == "über")
        #expect(notes.first?["line"] as? Int == 9)
        #expect(notes.first?["column"] as? Int == 8)

        let summary = try #require(root["summary"] as? [String: Int])
        #expect(summary == ["files": 2, "errors": 2, "warnings": 1, "notes": 0])
    }

    @Test("exposes the document as a value for embedding")
    func documentValue() {
        let report = ValidationReport(diagnostics: [Fixture.emptyTitle], filesChecked: 1)
        let document = JSONReporter.document(for: report)
        guard case let .object(members) = document else {
            Issue.record("expected an object, got \(document)")
            return
        }
        #expect(members.map(\.key) == ["version", "diagnostics", "summary"])
        #expect(members.first?.value == .integer(JSONReporter.formatVersion))
        guard case let .object(fields) = JSONReporter.value(for: Fixture.duplicateID) else {
            Issue.record("expected an object")
            return
        }
        #expect(
            fields.map(\.key) == [
                "file", "line", "column", "endLine", "endColumn", "severity", "rule", "message", "notes",
            ])
    }
}
