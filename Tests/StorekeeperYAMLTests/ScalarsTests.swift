import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// Scalars keep their text and their style; nothing is converted.
@Suite struct ScalarsTests {
    @Test func theFiveStylesAndTheirText() throws {
        let result = parseYAML("a: plain text\nb: 'single'\nc: \"double\"\nd: |\n  lit\n  eral\ne: >\n  fol\n  ded\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        let expected: [(String, ScalarStyle, String)] = [
            ("a", .plain, "plain text"),
            ("b", .singleQuoted, "single"),
            ("c", .doubleQuoted, "double"),
            ("d", .literal, "lit\neral\n"),
            ("e", .folded, "fol ded\n"),
        ]
        for (key, style, text) in expected {
            let node = try #require(root[key])
            #expect(node.kind == .scalar)
            #expect(node.scalarStyle == style, "\(key)")
            #expect(node.text == text, "\(key)")
            #expect(node.isFlow == false)
        }
        #expect(ScalarStyle.plain.isQuoted == false)
        #expect([ScalarStyle.singleQuoted, .doubleQuoted, .literal, .folded].allSatisfy { $0.isQuoted })
    }

    @Test func plainAndQuotedNumbersBothKeepTheirText() throws {
        let result = parseYAML("price: 0.99\nquoted: \"0.99\"\nsingle: '0.99'\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root["price"]?.text == "0.99")
        #expect(root["price"]?.scalarStyle == .plain)
        #expect(root["quoted"]?.text == "0.99")
        #expect(root["quoted"]?.scalarStyle == .doubleQuoted)
        #expect(root["single"]?.text == "0.99")
        #expect(root["single"]?.scalarStyle == .singleQuoted)
    }

    @Test func nothingIsSilentlyConverted() throws {
        let values = ["yes", "no", "on", "off", "true", "False", "01", "007", "0x1F", "0o17", "1e3", ".inf", "-.5", "+1", "2001-12-14", "12:30:00", "1_000"]
        let text = values.enumerated().map { "k\($0.offset): \($0.element)" }.joined(separator: "\n") + "\n"
        let result = parseYAML(text)
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.pairs.map { $0.value.text } == values)
        #expect(root.pairs.allSatisfy { $0.value.scalarStyle == .plain && !$0.value.isNull })
    }

    @Test func nullsArePlainAndUntagged() throws {
        let result = parseYAML("a: ~\nb: null\nc:\nd: Null\ne: NULL\nf: ''\ng: \"null\"\nh: !!str null\ni: !!str\nj: nil\nk: none\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        let nulls = ["a": "~", "b": "null", "c": "", "d": "Null", "e": "NULL"]
        for (key, text) in nulls {
            let node = try #require(root[key])
            #expect(node.isNull, "\(key)")
            #expect(node.text == text, "\(key) keeps its text")
        }
        for key in ["f", "g", "h", "i", "j", "k"] {
            #expect(root[key]?.isNull == false, "\(key) is not null")
        }
        #expect(root["f"]?.text == "")
        #expect(root["g"]?.text == "null")
        #expect(root["i"]?.text == "")
        #expect(root["i"]?.tag == "tag:yaml.org,2002:str")
    }

    @Test func anEmptyValueIsAnEmptyPlainScalarAtTheEndOfItsKey() throws {
        let result = parseYAML("empty:\nnext: 1\n")
        #expect(result.diagnostics.isEmpty)
        let node = try #require(result.document?.root?["empty"])
        #expect(node.kind == .scalar)
        #expect(node.text == "")
        #expect(node.scalarStyle == .plain)
        #expect(node.isNull)
        #expect(span(node) == "1:7-1:7")
    }

    @Test func tagsAreKeptAsWritten() throws {
        let result = parseYAML(
            "a: !!str 1\nb: !!int \"1\"\nc: !custom x\nd: !<tag:example.com,2000:x> bar\ne: !!seq [1]\nf: !!map {x: 1}\ng: 1\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        let a = try #require(root["a"])
        #expect(a.tag == "tag:yaml.org,2002:str")
        #expect(a.text == "1")
        #expect(a.scalarStyle == .plain)
        // The tag is part of the node: it starts at the tag.
        #expect(span(a) == "1:4-1:11")
        let b = try #require(root["b"])
        #expect(b.tag == "tag:yaml.org,2002:int")
        #expect(b.text == "1")
        #expect(b.scalarStyle == .doubleQuoted)
        #expect(root["c"]?.tag == "!custom")
        #expect(root["c"]?.text == "x")
        #expect(root["d"]?.tag == "tag:example.com,2000:x")
        #expect(root["e"]?.tag == "tag:yaml.org,2002:seq")
        #expect(root["e"]?.kind == .sequence)
        #expect(root["f"]?.tag == "tag:yaml.org,2002:map")
        #expect(root["f"]?["x"]?.text == "1")
        #expect(root["g"]?.tag == nil)
        #expect(root.tag == nil)
    }

    @Test func escapesAreApplied() throws {
        let result = parseYAML("a: \"tab\\there \\u00e9 \\\" q \\\\ \\x41 \\n\"\nb: 'it''s'\nc: \"\\U0001F600\"\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root["a"]?.text == "tab\there é \" q \\ A \n")
        #expect(root["b"]?.text == "it's")
        #expect(root["c"]?.text == "😀")
    }

    @Test func blockScalarChompingAndIndentation() throws {
        let result = parseYAML("keep: |+\n  x\n\nstrip: >-\n  x\n  y\nindented: |2\n   three\nclip: |\n  x\n\n\nend: 1\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root["keep"]?.text == "x\n\n")
        #expect(root["keep"]?.scalarStyle == .literal)
        #expect(root["strip"]?.text == "x y")
        #expect(root["strip"]?.scalarStyle == .folded)
        #expect(root["indented"]?.text == " three\n")
        #expect(root["clip"]?.text == "x\n")
    }

    @Test func multiLinePlainAndQuotedScalarsFold() throws {
        let result = parseYAML("a: one\n  two\nb: 'multi\n  line'\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root["a"]?.text == "one two")
        #expect(root["a"]?.scalarStyle == .plain)
        #expect(span(try #require(root["a"])) == "1:4-2:6")
        #expect(root["b"]?.text == "multi line")
    }

    @Test func aTabInsideAValueIsKept() throws {
        let result = parseYAML("a:\tb\nc: x\ty\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root["a"]?.text == "b")
        #expect(root["c"]?.text == "x\ty")
    }

    @Test func quotedKeysAreLookedUpByTheirText() throws {
        let result = parseYAML("\"a b\": 1\n'c:d': 2\n\"\": 3\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root["a b"]?.text == "1")
        #expect(root["c:d"]?.text == "2")
        #expect(root[""]?.text == "3")
        #expect(root.pairs.map { $0.key.scalarStyle } == [.doubleQuoted, .singleQuoted, .doubleQuoted])
        #expect(root["missing"] == nil)
    }

    @Test func keyLookupIsCaseSensitiveAndExact() throws {
        let result = parseYAML("Name: 1\nname: 2\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root["Name"]?.text == "1")
        #expect(root["name"]?.text == "2")
        #expect(root["NAME"] == nil)
        #expect(root["nam"] == nil)
    }

    @Test func collectionsHaveNoTextOrStyle() throws {
        let result = parseYAML("list: [a]\nmap: {k: v}\nscalar: s\nempty: []\nnone: {}\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.text == nil && root.scalarStyle == nil && !root.isNull)
        let list = try #require(root["list"])
        #expect(list.text == nil && list.scalarStyle == nil && !list.isNull)
        #expect(list.pairs.isEmpty)
        #expect(list["a"] == nil)
        let map = try #require(root["map"])
        #expect(map.items.isEmpty)
        #expect(map.text == nil)
        let scalar = try #require(root["scalar"])
        #expect(scalar.items.isEmpty && scalar.pairs.isEmpty)
        #expect(scalar["s"] == nil)
        let empty = try #require(root["empty"])
        #expect(empty.kind == .sequence && empty.isFlow && empty.items.isEmpty)
        #expect(span(empty) == "4:8-4:10")
        let none = try #require(root["none"])
        #expect(none.kind == .mapping && none.isFlow && none.pairs.isEmpty)
    }

    @Test func kindDescriptionsReadAsPlainWords() {
        #expect(YAMLNode.Kind.scalar.description == "a single value")
        #expect(YAMLNode.Kind.sequence.description == "a list")
        #expect(YAMLNode.Kind.mapping.description == "a mapping")
    }

    @Test func aScalarCanBeTheWholeDocument() throws {
        let result = parseYAML("hello\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.kind == .scalar)
        #expect(root.text == "hello")
        #expect(span(root) == "1:1-1:6")
    }

    @Test func nodeCountCountsStoredNodesOnly() throws {
        // 1 mapping + 3 keys + 1 list + 2 items + 1 scalar; the alias adds nothing stored.
        let result = parseYAML("a: &l [x, y]\nb: *l\nc: z\n")
        #expect(result.diagnostics.isEmpty)
        let document = try #require(result.document)
        #expect(document.nodeCount == 8)
    }
}
