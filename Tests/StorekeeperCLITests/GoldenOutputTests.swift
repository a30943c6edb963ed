import Foundation
import Testing

/// The full output of `storekeeper validate` for one small catalog with
/// several kinds of problem, in both formats, byte for byte.
@Suite("Golden output")
struct GoldenOutputTests {
    /// A catalog with an unknown key (with a suggestion), a duplicate product
    /// id (with a note), a bad enumeration value, `yes` for a boolean, a
    /// missing key, and a warning: an unquoted `minimum-os`.
    static let brokenCatalog = """
        catalog: space-miner
        app:
          bundle-id: com.example.spaceminer
          platforms: [ios]
          minimum-os: 15.0
        features: [drill]
        products:
          - id: com.example.spaceminer.drill
            type: non-consumable
            reference-name: Laser Drill
            price: "2.99"
            family-sharable: true
            localizations:
              en-US: {title: Laser Drill, description: Mine twice as fast}
            delivery: {model: built-in, unlocks: [drill]}
            persistence: receipt
            restore: receipt-refresh
          - id: com.example.spaceminer.drill
            type: non-consumible
            reference-name: Laser Drill Again
            price: "3.99"
            localizations:
              en-US: {title: Drill Again, description: The same drill}
            delivery: built-in
            persistence: receipt
            restore: receipt-refresh
          - id: com.example.spaceminer.shield
            type: non-consumable
            reference-name: Shield
            price: "1.99"
            family-shareable: yes
            localizations:
              en-US: {title: Shield, description: Survive the asteroid belt}
            delivery: built-in
            persistence: receipt

        """

    static let expectedText = """
        game.yaml:5:15: warning: write the version in quotes, "15.0": unquoted, other YAML tools read it as a number (and 15.10 as 15.1) [unquoted-version]
            5 |   minimum-os: 15.0
              |               ^~~~
        game.yaml:12:5: error: unknown key 'family-sharable' in a product; did you mean 'family-shareable'? [unknown-key]
           12 |     family-sharable: true
              |     ^~~~~~~~~~~~~~~
        game.yaml:18:9: error: the product id 'com.example.spaceminer.drill' is already used; every product needs its own id [duplicate-id]
           18 |   - id: com.example.spaceminer.drill
              |         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~
        game.yaml:8:9: note: first used here
            8 |   - id: com.example.spaceminer.drill
              |         ^
        game.yaml:19:11: error: 'non-consumible' is not a valid product type; did you mean 'non-consumable'? (expected one of: consumable, non-consumable, auto-renewable-subscription, non-renewing-subscription) [invalid-value]
           19 |     type: non-consumible
              |           ^~~~~~~~~~~~~~
        game.yaml:27:5: error: this product is missing 'restore'; add `restore: receipt-refresh`, or set it for every product under `defaults` [missing-key]
           27 |   - id: com.example.spaceminer.shield
              |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
        game.yaml:31:23: error: 'yes' is not a boolean in YAML 1.2 (some tools read it as true, others as text); write true [boolean-spelling]
           31 |     family-shareable: yes
              |                       ^~~
        5 errors, 1 warning in 1 file

        """

    static let expectedJSON = #"""
        {
          "version": 1,
          "diagnostics": [
            {
              "file": "game.yaml",
              "line": 5,
              "column": 15,
              "endLine": 5,
              "endColumn": 19,
              "severity": "warning",
              "rule": "unquoted-version",
              "message": "write the version in quotes, \"15.0\": unquoted, other YAML tools read it as a number (and 15.10 as 15.1)",
              "notes": []
            },
            {
              "file": "game.yaml",
              "line": 12,
              "column": 5,
              "endLine": 12,
              "endColumn": 20,
              "severity": "error",
              "rule": "unknown-key",
              "message": "unknown key 'family-sharable' in a product; did you mean 'family-shareable'?",
              "notes": []
            },
            {
              "file": "game.yaml",
              "line": 18,
              "column": 9,
              "endLine": 18,
              "endColumn": 37,
              "severity": "error",
              "rule": "duplicate-id",
              "message": "the product id 'com.example.spaceminer.drill' is already used; every product needs its own id",
              "notes": [
                {
                  "file": "game.yaml",
                  "line": 8,
                  "column": 9,
                  "message": "first used here"
                }
              ]
            },
            {
              "file": "game.yaml",
              "line": 19,
              "column": 11,
              "endLine": 19,
              "endColumn": 25,
              "severity": "error",
              "rule": "invalid-value",
              "message": "'non-consumible' is not a valid product type; did you mean 'non-consumable'? (expected one of: consumable, non-consumable, auto-renewable-subscription, non-renewing-subscription)",
              "notes": []
            },
            {
              "file": "game.yaml",
              "line": 27,
              "column": 5,
              "endLine": 36,
              "endColumn": 1,
              "severity": "error",
              "rule": "missing-key",
              "message": "this product is missing 'restore'; add `restore: receipt-refresh`, or set it for every product under `defaults`",
              "notes": []
            },
            {
              "file": "game.yaml",
              "line": 31,
              "column": 23,
              "endLine": 31,
              "endColumn": 26,
              "severity": "error",
              "rule": "boolean-spelling",
              "message": "'yes' is not a boolean in YAML 1.2 (some tools read it as true, others as text); write true",
              "notes": []
            }
          ],
          "summary": {
            "files": 1,
            "errors": 5,
            "warnings": 1,
            "notes": 0
          }
        }

        """#

    @Test("text output is exactly the golden text, and the exit status is 1")
    func textGolden() async throws {
        let workspace = try Workspace()
        try workspace.write("game.yaml", Self.brokenCatalog)
        let result = try await workspace.run("validate", "game.yaml")
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == Self.expectedText)
        #expect(result.stderr == "")
    }

    @Test("`--format text` is the default")
    func explicitTextFormat() async throws {
        let workspace = try Workspace()
        try workspace.write("game.yaml", Self.brokenCatalog)
        let result = try await workspace.run("validate", "--format", "text", "game.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == Self.expectedText)
    }

    @Test("JSON output is exactly the golden document, and the exit status is 1")
    func jsonGolden() async throws {
        let workspace = try Workspace()
        try workspace.write("game.yaml", Self.brokenCatalog)
        let result = try await workspace.run("validate", "--format", "json", "game.yaml")
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == Self.expectedJSON)
        #expect(result.stderr == "")
    }

    @Test("the JSON document has every member the contract names, with the right types")
    func jsonContractShape() async throws {
        let workspace = try Workspace()
        try workspace.write("game.yaml", Self.brokenCatalog)
        let result = try await workspace.run("validate", "--format", "json", "game.yaml")
        let document = try #require(
            try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result)")
        #expect(document["version"] as? Int == 1)
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 6)
        for diagnostic in diagnostics {
            for key in ["file", "severity", "rule", "message"] {
                #expect(diagnostic[key] is String, "\(key) in \(diagnostic)")
            }
            for key in ["line", "column"] {
                #expect((diagnostic[key] as? Int).map { $0 >= 1 } == true, "\(key) in \(diagnostic)")
            }
            #expect(["error", "warning", "note"].contains(diagnostic["severity"] as? String))
            let notes = try #require(diagnostic["notes"] as? [[String: Any]])
            for note in notes {
                #expect(note["file"] is String && note["line"] is Int && note["column"] is Int && note["message"] is String)
            }
        }
        #expect(diagnostics.map { $0["rule"] as? String } == [
            "unquoted-version", "unknown-key", "duplicate-id", "invalid-value", "missing-key", "boolean-spelling",
        ])
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["files"] as? Int == 1)
        #expect(summary["errors"] as? Int == 5)
        #expect(summary["warnings"] as? Int == 1)
    }

    @Test("paths are reported as given: a file in a folder, and `./` removed")
    func pathsAsGiven() async throws {
        let workspace = try Workspace()
        try workspace.write("store/game.yaml", Self.brokenCatalog)
        let nested = try await workspace.run("validate", "store/game.yaml")
        #expect(nested.status == 1, "\(nested)")
        #expect(nested.stdout == Self.expectedText.replacingOccurrences(of: "game.yaml:", with: "store/game.yaml:"))

        let dotted = try await workspace.run("validate", "./store/game.yaml")
        #expect(dotted.stdout == nested.stdout)
    }

    @Test("a file named twice, or by file and by its folder, is validated once")
    func duplicatesCollapsed() async throws {
        let workspace = try Workspace()
        try workspace.write("store/game.yaml", Self.brokenCatalog)
        let result = try await workspace.run("validate", "store/game.yaml", "store", "./store/game.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.lastStdoutLine == "5 errors, 1 warning in 1 file")
        #expect(result.stdout.components(separatedBy: "[duplicate-id]").count == 2)
    }
}
