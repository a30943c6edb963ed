import StorekeeperCore
import Foundation
import Testing

/// Bad input is a catalog error (exit 1), reported like any other: never a
/// crash, never a hang, never a usage error.
@Suite("Bad input (exit 1)")
struct HostileInputTests {
    /// Runs `validate ARGUMENTS` after writing the files, and checks that it
    /// exited on its own with status 1, a report on stdout and nothing on stderr.
    static func expectCatalogError(
        _ arguments: [String], files: [String: [UInt8]],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CLIResult {
        let workspace = try Workspace()
        for (name, bytes) in files { try workspace.write(name, bytes: bytes) }
        let result = try await CLI.run(["validate"] + arguments, in: workspace.url)
        #expect(!result.timedOut, "hung: \(result)", sourceLocation: sourceLocation)
        #expect(!result.signaled, "crashed: \(result)", sourceLocation: sourceLocation)
        #expect(result.status == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr == "", "\(result)", sourceLocation: sourceLocation)
        // The output is safe for a terminal: no raw control characters.
        #expect(controlCharacters(in: result.stdoutData).isEmpty, "\(result)", sourceLocation: sourceLocation)
        return result
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("an empty file named explicitly")
    func emptyFile() async throws {
        let result = try await Self.expectCatalogError(["empty.yaml"], files: ["empty.yaml": []])
        #expect(result.stdout == """
            empty.yaml:1:1: error: the file is empty [document-count]
                1 |
                  | ^
            1 error in 1 file

            """)
    }

    @Test("a file of only comments and blank lines")
    func onlyComments() async throws {
        let result = try await Self.expectCatalogError(
            ["notes.yaml"], files: ["notes.yaml": Self.bytes("# nothing here\n\n# at all\n")])
        #expect(result.stdout.contains("[document-count]"), "\(result)")
        #expect(result.lastStdoutLine == "1 error in 1 file")
    }

    @Test("a binary file (random bytes with NULs and escapes) named catalog.yaml")
    func binaryFile() async throws {
        var generator = SplitMix64(seed: 0x5EED_CA7A_1096)
        var data = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Make sure of the worst: NULs, an escape sequence, invalid UTF-8, CRs.
        data.replaceSubrange(100..<110, with: [0x00, 0x1B, 0x5B, 0x33, 0x31, 0x6D, 0xFF, 0xFE, 0x0D, 0x00])
        let result = try await Self.expectCatalogError(["catalog.yaml"], files: ["catalog.yaml": data])
        #expect(result.stdout.hasPrefix("catalog.yaml:1:"), "\(result)")
        #expect(result.stdout.contains(": error: "), "\(result)")
        #expect(result.stdout.contains("[yaml-syntax]"), "\(result)")
        #expect(result.lastStdoutLine == "1 error in 1 file")
    }

    @Test("a file whose first bytes are NUL and an escape sequence")
    func nulAndEscape() async throws {
        let result = try await Self.expectCatalogError(
            ["catalog.yaml"], files: ["catalog.yaml": [0x00, 0x1B] + Self.bytes("[31mred\n")])
        #expect(result.stdout.hasPrefix("catalog.yaml:1:1: error: "), "\(result)")
        #expect(result.stdout.contains("[yaml-syntax]"), "\(result)")
    }

    @Test("a NUL byte inside an otherwise valid catalog")
    func nulInCatalog() async throws {
        let result = try await Self.expectCatalogError(
            ["catalog.yaml"], files: ["catalog.yaml": Self.bytes("catalog: x") + [0x00] + Self.bytes("\n")])
        #expect(result.stdout.hasPrefix("catalog.yaml:1:11: error: the file holds a NUL byte"), "\(result)")
        #expect(result.stdout.contains("[yaml-syntax]"))
    }

    @Test("invalid UTF-8: a stray 0xFF byte")
    func invalidUTF8() async throws {
        let text = Self.bytes("catalog: ab") + [0xFF] + Self.bytes("cd\napp:\n  bundle-id: com.example.x\n")
        let result = try await Self.expectCatalogError(["latin.yaml"], files: ["latin.yaml": text])
        #expect(result.stdout == """
            latin.yaml:1:12: error: the file is not valid UTF-8 (byte 0xFF here: invalid leading UTF-8 octet); it may be Latin-1 or Windows-1252 text: save it as UTF-8 [yaml-syntax]
                1 | catalog: ab\u{FFFD}cd
                  |            ^
            1 error in 1 file

            """)
    }

    @Test("invalid UTF-8: Latin-1 text")
    func latin1() async throws {
        let text = Self.bytes("catalog: caf") + [0xE9] + Self.bytes("\napp:\n  bundle-id: com.example.x\n")
        let result = try await Self.expectCatalogError(["latin.yaml"], files: ["latin.yaml": text])
        #expect(result.stdout.hasPrefix("latin.yaml:1:"), "\(result)")
        #expect(result.stdout.contains("not valid UTF-8"), "\(result)")
        #expect(result.stdout.contains("[yaml-syntax]"), "\(result)")
    }

    @Test("100,000 nested `[`: an error at 1:65, rule yaml-limit")
    func deepNesting() async throws {
        let text = String(repeating: "[", count: 100_000) + "\n"
        let result = try await Self.expectCatalogError(["deep.yaml"], files: ["deep.yaml": Self.bytes(text)])
        let header = try #require(result.stdout.split(separator: "\n").first.map(String.init))
        #expect(header == "deep.yaml:1:65: error: lists and mappings nest deeper than 64 levels here; a catalog needs about 6 (raise the limit with --max-depth if this is intended) [yaml-limit]")
        #expect(result.lastStdoutLine == "1 error in 1 file")
    }

    @Test("100,000 nested `{`, and deep block nesting, in a catalog")
    func deepMappings() async throws {
        let flow = "catalog: deep\nproducts: " + String(repeating: "{a: ", count: 100_000) + "\n"
        let flowResult = try await Self.expectCatalogError(["flow.yaml"], files: ["flow.yaml": Self.bytes(flow)])
        #expect(flowResult.stdout.hasPrefix("flow.yaml:2:"), "\(flowResult)")
        #expect(flowResult.stdout.contains("[yaml-limit]"), "\(flowResult)")

        var block = "catalog: deep\nproducts:\n"
        for level in 1...200 { block += String(repeating: "  ", count: level) + "k:\n" }
        let blockResult = try await Self.expectCatalogError(["block.yaml"], files: ["block.yaml": Self.bytes(block)])
        #expect(blockResult.stdout.contains("[yaml-limit]"), "\(blockResult)")
    }

    @Test("a lower `--max-depth` is honoured")
    func lowerMaxDepth() async throws {
        let result = try await Self.expectCatalogError(
            ["--max-depth", "3", "deep.yaml"], files: ["deep.yaml": Self.bytes("catalog: x\na: [[[[1]]]]\n")])
        #expect(result.stdout.hasPrefix("deep.yaml:2:6: error: lists and mappings nest deeper than 3 levels here"), "\(result)")
    }

    @Test("an alias bomb (a billion laughs)")
    func aliasBomb() async throws {
        var text = "catalog: bomb\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        for (previous, name) in zip(names, names.dropFirst()) {
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ",") + "]\n"
        }
        let result = try await Self.expectCatalogError(["bomb.yaml"], files: ["bomb.yaml": Self.bytes(text)])
        #expect(result.stdout.contains("[yaml-limit]"), "\(result)")
        #expect(result.stdout.contains("alias bomb"), "\(result)")
        #expect(result.lastStdoutLine == "1 error in 1 file")
    }

    @Test("an alias bomb through merge keys")
    func mergeKeyBomb() async throws {
        var text = "catalog: bomb\na: &a {k0: 1, k1: 1, k2: 1, k3: 1, k4: 1, k5: 1, k6: 1, k7: 1, k8: 1, k9: 1}\n"
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        for (previous, name) in zip(names, names.dropFirst()) {
            let items = (0..<10).map { "x\($0): {<<: *\(previous)}" }.joined(separator: ", ")
            text += "\(name): &\(name) {\(items)}\n"
        }
        let result = try await Self.expectCatalogError(["merge.yaml"], files: ["merge.yaml": Self.bytes(text)])
        #expect(result.stdout.contains("[yaml-limit]"), "\(result)")
    }

    @Test("a file with two documents")
    func twoDocuments() async throws {
        let text = validCatalog() + "---\n" + validCatalog(name: "other")
        let result = try await Self.expectCatalogError(["two.yaml"], files: ["two.yaml": Self.bytes(text)])
        #expect(result.stdout.hasPrefix(
            "two.yaml:15:1: error: a catalog file holds exactly one YAML document, and a second one starts here; move it to its own file and `include` it [document-count]\n"),
            "\(result)")
        #expect(result.lastStdoutLine == "1 error in 1 file")
    }

    @Test("a file over `--max-file-size 1KiB`")
    func overSizeLimit() async throws {
        let text = validCatalog() + String(repeating: "# padding to pass the limit\n", count: 40)
        #expect(text.utf8.count > 1024)
        let result = try await Self.expectCatalogError(
            ["--max-file-size", "1KiB", "big.yaml"], files: ["big.yaml": Self.bytes(text)])
        let header = try #require(result.stdout.split(separator: "\n").first.map(String.init))
        #expect(header.hasPrefix("big.yaml:1:1: error: the file is "), "\(result)")
        #expect(header.contains("over the limit of 1 KiB"), "\(result)")
        #expect(header.hasSuffix("[yaml-limit]"), "\(result)")
        #expect(result.lastStdoutLine == "1 error in 1 file")
    }

    @Test("the same file under the default limit is fine")
    func underDefaultLimit() async throws {
        let workspace = try Workspace()
        try workspace.write("big.yaml", validCatalog() + String(repeating: "# padding to pass the limit\n", count: 40))
        let result = try await workspace.run("validate", "big.yaml")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no problems in 1 file\n")
    }

    @Test("a fragment over the limit, reached through include")
    func fragmentOverSizeLimit() async throws {
        let fragment = "features: [a]\n" + String(repeating: "# padding to pass the limit\n", count: 40)
        let result = try await Self.expectCatalogError(
            ["--max-file-size", "1KiB", "shop.yaml"],
            files: [
                "shop.yaml": Self.bytes(validCatalog(extra: "include: [big.yaml]\n")),
                "big.yaml": Self.bytes(fragment),
            ])
        #expect(result.stdout.contains("over the limit of 1 KiB"), "\(result)")
        #expect(result.stdout.contains("[yaml-limit]"), "\(result)")
        #expect(!result.stdout.hasPrefix("shop.yaml:"), "\(result)")
    }

    @Test("a fragment named explicitly is not a catalog")
    func fragmentNamedExplicitly() async throws {
        let fragment = """
            # a fragment
            products:
              - id: com.example.shop.gems
                type: consumable

            """
        let result = try await Self.expectCatalogError(["fragment.yaml"], files: ["fragment.yaml": Self.bytes(fragment)])
        #expect(result.stdout == """
            fragment.yaml:2:1: error: this file has no top-level `catalog` key, so it is not a catalog; fragments are checked through the catalog that includes them, so validate that one [not-a-catalog]
                2 | products:
                  | ^~~~~~~~~
            1 error in 1 file

            """)
    }

    @Test("a top-level list or scalar named explicitly is not a catalog")
    func notAMapping() async throws {
        for text in ["- catalog: x\n", "just words\n", "42\n"] {
            let result = try await Self.expectCatalogError(["odd.yaml"], files: ["odd.yaml": Self.bytes(text)])
            #expect(result.stdout.contains("[not-a-catalog]"), "\(text): \(result)")
        }
    }

    @Test("an include cycle")
    func includeCycle() async throws {
        let result = try await Self.expectCatalogError(
            ["shop.yaml"],
            files: [
                "shop.yaml": Self.bytes(validCatalog(extra: "include: [a.yaml]\n")),
                "a.yaml": Self.bytes("include: [b.yaml]\n"),
                "b.yaml": Self.bytes("include: [a.yaml]\n"),
            ])
        #expect(result.stdout == """
            b.yaml:1:11: error: this include makes a cycle (a.yaml → b.yaml → a.yaml); remove it [include]
                1 | include: [a.yaml]
                  |           ^~~~~~
            a.yaml:1:11: note: the cycle starts with this include
                1 | include: [b.yaml]
                  |           ^
            1 error in 3 files

            """)
    }

    @Test("a catalog that includes itself")
    func selfInclude() async throws {
        let result = try await Self.expectCatalogError(
            ["shop.yaml"], files: ["shop.yaml": Self.bytes(validCatalog(extra: "include: [shop.yaml]\n"))])
        #expect(result.stdout.hasPrefix(
            "shop.yaml:5:11: error: this include makes a cycle (shop.yaml → shop.yaml); remove it [include]\n"), "\(result)")
        #expect(result.lastStdoutLine == "1 error in 1 file")
    }

    @Test("an include cycle found through a directory")
    func includeCycleInDirectory() async throws {
        let result = try await Self.expectCatalogError(
            ["store"],
            files: [
                "store/shop.yaml": Self.bytes(validCatalog(extra: "include: [parts/a.yaml]\n")),
                "store/parts/a.yaml": Self.bytes("include: [b.yaml]\n"),
                "store/parts/b.yaml": Self.bytes("include: [../parts/a.yaml]\n"),
            ])
        #expect(result.stdout.hasPrefix(
            "store/parts/b.yaml:1:11: error: this include makes a cycle (store/parts/a.yaml → store/parts/b.yaml → store/parts/a.yaml); remove it [include]\n"),
            "\(result)")
        #expect(result.lastStdoutLine == "1 error in 3 files")
    }

    @Test("an include of a missing file, and of a directory")
    func badIncludes() async throws {
        let result = try await Self.expectCatalogError(
            ["shop.yaml"],
            files: [
                "shop.yaml": Self.bytes(validCatalog(extra: "include: [missing.yaml, parts]\n")),
                "parts/a.yaml": Self.bytes("features: [x]\n"),
            ])
        #expect(result.stdout.contains(
            "shop.yaml:5:11: error: cannot include 'missing.yaml': there is no file missing.yaml; include paths are relative to shop.yaml [include]"),
            "\(result)")
        #expect(result.stdout.contains("shop.yaml:5:25: error: an include names a YAML fragment, ending in .yaml or .yml; 'parts' does not"), "\(result)")
        #expect(result.lastStdoutLine == "2 errors in 1 file")
    }

    @Test("a catalog-looking file that is broken YAML is still found in a directory")
    func brokenCatalogInDirectory() async throws {
        let result = try await Self.expectCatalogError(
            ["store"],
            files: [
                "store/broken.yaml": Self.bytes("catalog: broken\napp: [unclosed\n"),
                "store/fragment.yml": Self.bytes("products: []\n"),
            ])
        #expect(result.stdout.hasPrefix("store/broken.yaml:"), "\(result)")
        #expect(result.stdout.contains("[yaml-syntax]"), "\(result)")
        #expect(result.lastStdoutLine == "1 error in 1 file")
    }

    @Test("a control character in a key is shown as a picture, not sent to the terminal")
    func controlCharacterInKey() async throws {
        let text = validCatalog(extra: "\"x\\e[2Jy\": 1\n")
        let result = try await Self.expectCatalogError(["shop.yaml"], files: ["shop.yaml": Self.bytes(text)])
        #expect(result.stdout.contains("x\u{241B}[2Jy"), "\(result)")
        #expect(!result.stdout.contains("\u{1B}"))
    }
}
