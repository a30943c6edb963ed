import PropertyBased
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// Properties that hold for any input: no crash, a document or an error, and
/// every position inside the text; and for generated documents, a faithful tree.
@Suite struct PropertiesTests {
    // MARK: Invariants of any parse

    static let fuzzFile = "fuzz.yaml"

    /// How many lines libyaml may count in `bytes`: it breaks lines at LF, CR,
    /// CR LF, NEL, LS and PS; counting each CR and LF on its own over-counts CR LF,
    /// which is fine for an upper bound.
    static func lineBound(_ bytes: [UInt8]) -> Int {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return bytes.count + 1 }
        var breaks = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                breaks += 1
            } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0x85 {
                breaks += 1
            } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] & 0xFE == 0xA8 {
                breaks += 1
            }
            index += 1
        }
        return breaks + 1
    }

    /// Parses `bytes` and checks what must hold whatever they are.
    static func checkInvariants(_ bytes: [UInt8], limits: YAMLLimits = .default, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let result = YAMLParser.parse(bytes, file: fuzzFile, limits: limits)
        let lines = lineBound(bytes)
        let shown = bytes.count <= 200 ? String(decoding: bytes, as: UTF8.self).debugDescription : "\(bytes.count) bytes"

        func check(_ location: StorekeeperDiagnostics.SourceLocation, _ what: String) {
            #expect(location.file == fuzzFile, sourceLocation: sourceLocation)
            #expect(
                location.line >= 1 && location.line <= lines + 1, "\(what) at line \(location.line) of \(lines): \(shown)",
                sourceLocation: sourceLocation)
            #expect(
                location.column >= 1 && location.column <= bytes.count + 1, "\(what) at column \(location.column): \(shown)",
                sourceLocation: sourceLocation)
        }

        // A document, or at least one error.
        #expect(
            result.document != nil || result.diagnostics.contains { $0.severity == .error }, "neither a document nor an error: \(shown)",
            sourceLocation: sourceLocation)
        for diagnostic in result.diagnostics {
            #expect(!diagnostic.message.isEmpty, sourceLocation: sourceLocation)
            #expect(!diagnostic.rule.isEmpty, sourceLocation: sourceLocation)
            check(diagnostic.range.start, "\(diagnostic.rule) start")
            check(diagnostic.range.end, "\(diagnostic.rule) end")
            #expect(!(diagnostic.range.end < diagnostic.range.start), "\(diagnostic.rule) ends before it starts: \(shown)", sourceLocation: sourceLocation)
            for note in diagnostic.notes { check(note.location, "note of \(diagnostic.rule)") }
        }
        // A syntax error, a limit or a wrong document count stops the parse: one at most, and no document.
        let stops = result.diagnostics.filter { [YAMLRuleID.syntax, YAMLRuleID.limit, YAMLRuleID.documentCount].contains($0.rule) }
        #expect(stops.count <= 1, "\(stops.map(\.message)): \(shown)", sourceLocation: sourceLocation)
        if !stops.isEmpty { #expect(result.document == nil, sourceLocation: sourceLocation) }
        // Every node of the tree lies inside the text (the walk is capped: aliases may repeat nodes).
        if let root = result.document?.root {
            var budget = 20_000
            var stack = [root]
            while let node = stack.popLast(), budget > 0 {
                budget -= 1
                check(node.range.start, "\(node.kind) start")
                check(node.range.end, "\(node.kind) end")
                #expect(!(node.range.end < node.range.start), "a node ends before it starts: \(shown)", sourceLocation: sourceLocation)
                switch node.kind {
                case .scalar:
                    #expect(node.text != nil && node.scalarStyle != nil, sourceLocation: sourceLocation)
                case .sequence:
                    stack.append(contentsOf: node.items)
                case .mapping:
                    for pair in node.pairs {
                        #expect(pair.key.kind == .scalar, "a non-scalar key survived: \(shown)", sourceLocation: sourceLocation)
                        stack.append(pair.key)
                        stack.append(pair.value)
                    }
                }
            }
        }
    }

    @Test func randomBytesNeverCrashAndAlwaysExplain() async {
        await propertyCheck(count: 300, input: Gen<UInt8>.value(in: 0...255).array(of: 0...2048)) { bytes in
            Self.checkInvariants(bytes)
        }
    }

    /// Pieces of YAML syntax, glued at random: far likelier than random bytes to get past the first line.
    static let tokens = [
        "a", "b", "key", "é", "日本", "😀", "1", "0.99", "~", ":", ": ", " ", "  ", "\n", "\n", "\n  ", "\r\n", "\r", "\t", "- ", "-",
        "[", "]", "{", "}", ", ", ",", "? ", "&x ", "*x", "&y ", "*y", "<<: ", "<<: *x", "<<: [*x, *y]", "'", "''", "\"", "\\",
        "\\q", "|", "|\n  ", ">", "#", " # c", "!!str ", "!t ", "---", "---\n", "...", "...\n", "%YAML 1.1\n", "@", "`", "\u{0}",
        "\u{FEFF}", "\u{85}", "\u{2028}", "\u{1}",
    ]

    @Test func yamlishTextNeverCrashesAndAlwaysExplains() async {
        await propertyCheck(count: 500, input: Gen.element(of: Self.tokens).array(of: 0...120)) { pieces in
            Self.checkInvariants(Array(pieces.compactMap { $0 }.joined().utf8))
        }
    }

    /// Lines of keys and values from small pools, so that keys repeat, anchors and
    /// aliases meet, merges and bad keys happen, and indentation varies.
    static let linePieces = (
        keys: ["a", "b", "c", "<<", "'a'", "\"b\"", "? [x]", "*k", "&k a", "é", "日本", "[a]", "? a"],
        values: [
            "1", "x", "~", "", "*k", "&k v", "&m {a: 1, b: 2}", "*m", "[*m, *k]", "[1, [2]]", "{a: 1, a: 2}", "|", ">-", "'q'",
            "\"e\\q\"", "!!str 3", "*nope", "&s [*s]", "<<", "[", "{", "&l [*m, *m, *m]", "[*l, *l, *l]", "{<<: [*m, *k]}",
        ]
    )

    static let structuredLines = zip(
        Gen.int(in: 0...2), Gen.int(in: 0...3), Gen.int(in: 0...(linePieces.keys.count - 1)),
        Gen.int(in: 0...(linePieces.values.count - 1))
    ).array(of: 1...25)

    @Test func structuredJunkNeverCrashesAndAlwaysExplains() async {
        await propertyCheck(count: 500, input: Self.structuredLines) { lines in
            let text = lines.map { indent, shape, key, value in
                let key = Self.linePieces.keys[key], value = Self.linePieces.values[value]
                let pad = String(repeating: "  ", count: indent)
                switch shape {
                case 0: return pad + key + ": " + value + "\n"
                case 1: return pad + key + ":\n"
                case 2: return pad + "- " + value + "\n"
                default: return pad + "- " + key + ": " + value + "\n"
                }
            }.joined()
            Self.checkInvariants(Array(text.utf8))
        }
    }

    /// Valid documents to mutate.
    static let seeds = [
        "catalog: shop\nproducts:\n  - id: coins.100\n    price: 0.99\n    name: \"Coins\"\n  - id: gems\n    price: '1.99'\n",
        "defaults: &d\n  price: 0.99\n  locale: en\nitems:\n  - <<: *d\n    id: a\n  - {<<: *d, id: b}\n",
        "text: |\n  line one\n  line two\nfolded: >-\n  a\n  b\nlist: [1, [2, 3], {k: v}]\n",
        "é: 日本\n😀: [x, 'y', \"z\"]\n? k\n: v\nempty:\nnull: ~\n",
        "- &a [1, 2]\n- *a\n- !!str 3\n- - nested\n  - list\n",
    ]

    /// A seed and a list of edits: (operation, position, byte).
    static let mutations = zip(
        Gen.int(in: 0...(seeds.count - 1)),
        zip(Gen.int(in: 0...3), Gen.int(in: 0...10_000), Gen<UInt8>.value(in: 0...255)).array(of: 1...4))

    /// Bytes that matter to YAML, for insertions and replacements.
    static let interesting: [UInt8] = Array(":-[]{},&*!|>'\"#%@`?<\\ \t\n\r".utf8) + [0x00, 0xFF, 0xC3, 0xE6, 0x85, 0x80]

    @Test func mutatedDocumentsNeverCrashAndAlwaysExplain() async {
        await propertyCheck(count: 500, input: Self.mutations) { seed, edits in
            var bytes = Array(Self.seeds[seed].utf8)
            for (operation, position, value) in edits {
                let index = bytes.isEmpty ? 0 : position % (bytes.count + 1)
                let byte = value < 200 ? Self.interesting[Int(value) % Self.interesting.count] : value
                switch operation {
                case 0:
                    bytes.insert(byte, at: index)
                case 1:
                    if index < bytes.count { bytes.remove(at: index) }
                case 2:
                    if index < bytes.count { bytes[index] = byte }
                default:
                    // Duplicate a slice (a line, a key) somewhere else.
                    let end = min(bytes.count, index + Int(value % 24))
                    bytes.insert(contentsOf: bytes[index..<end], at: position % (bytes.count + 1))
                }
            }
            Self.checkInvariants(bytes)
        }
    }

    @Test func tightLimitsNeverCrashEither() async {
        let input = zip(Gen.element(of: Self.tokens).array(of: 0...120), Gen.int(in: 1...6), Gen.int(in: 0...40))
        await propertyCheck(count: 300, input: input) { pieces, depth, budget in
            let bytes = Array(pieces.compactMap { $0 }.joined().utf8)
            Self.checkInvariants(bytes, limits: YAMLLimits(maxDepth: depth, maxAliasExpansion: budget))
        }
    }

    // MARK: Limits as properties

    @Test func depthIsAcceptedUpToTheLimitAndRejectedAtTheFirstOpenerBeyond() async {
        await propertyCheck(count: 200, input: zip(Gen.int(in: 1...150), Gen.int(in: 1...100))) { depth, limit in
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
            let result = parseYAML(text, limits: YAMLLimits(maxDepth: limit))
            if depth <= limit {
                #expect(result.diagnostics.isEmpty)
                #expect(result.document != nil)
            } else {
                expectRejected(result, rule: YAMLRuleID.limit, line: 1, column: limit + 1, mentions: ["deeper than \(limit)"])
            }
        }
    }

    @Test func aliasBombsAreAcceptedExactlyWhenTheirExpansionFitsTheBudget() async {
        let input = zip(Gen.int(in: 1...7), Gen.int(in: 1...7), Gen.int(in: 0...1000))
        await propertyCheck(count: 300, input: input) { levels, width, per in
            let expansion = LimitsTests.laughsExpansion(levels: levels, width: width)
            let budget = expansion * per / 500  // 0 ... twice the expansion
            let result = parseYAML(LimitsTests.laughs(levels: levels, width: width), limits: YAMLLimits(maxAliasExpansion: budget))
            if expansion <= budget {
                #expect(result.diagnostics.isEmpty)
                #expect(result.document?.root?["l\(levels)"]?.items.count == width)
            } else {
                #expect(result.document == nil)
                #expect(result.diagnostics.map(\.rule) == [YAMLRuleID.limit])
                #expect(result.diagnostics.first?.message.contains("beyond \(budget) nodes") == true)
            }
        }
    }

    // MARK: Round trips

    /// A random tree: scalars of every style, block and flow collections.
    struct TreeMaker {
        static let letters = Array("abcxyzABC")
        static let alphabet: [String] = [
            "a", "b", "z", "Q", "0", "9", " ", ":", "#", "-", "[", "]", "{", "}", ",", "&", "*", "!", "|", ">", "'", "\"", "%", "@",
            "`", "\\", "é", "日", "😀", "\t", "\n", "e\u{301}", "\u{85}", "\u{2028}", "~", "<<",
        ]

        static func text<R: RandomNumberGenerator>(_ rng: inout R, maxLength: Int) -> String {
            (0..<Int.random(in: 0...maxLength, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
        }

        static func word<R: RandomNumberGenerator>(_ rng: inout R) -> String {
            String((0..<Int.random(in: 1...6, using: &rng)).map { _ in letters.randomElement(using: &rng)! })
        }

        /// Text and a style that can carry it (in flow context: no block scalars).
        static func scalar<R: RandomNumberGenerator>(_ rng: inout R, inFlow: Bool) -> PlainNode {
            switch Int.random(in: 0...(inFlow ? 3 : 5), using: &rng) {
            case 0, 1:
                return .scalar(word(&rng), .plain)
            case 2:
                return .scalar(text(&rng, maxLength: 8), .doubleQuoted)
            case 3:
                let text = text(&rng, maxLength: 8).filter { !$0.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{85}" || $0 == "\u{2028}" } }
                return .scalar(text, .singleQuoted)
            case 4:
                let lines = (0..<Int.random(in: 1...3, using: &rng)).map { _ in word(&rng) + " " + word(&rng) }
                return .scalar(lines.joined(separator: "\n") + "\n", .literal)
            default:
                return .scalar(word(&rng) + " " + word(&rng) + "\n", .folded)
            }
        }

        static func key<R: RandomNumberGenerator>(_ rng: inout R) -> (String, ScalarStyle) {
            Bool.random(using: &rng) ? (word(&rng), .plain) : (text(&rng, maxLength: 6), .doubleQuoted)
        }

        static func node<R: RandomNumberGenerator>(_ rng: inout R, depth: Int, inFlow: Bool) -> PlainNode {
            if depth >= 4 || Int.random(in: 0...2, using: &rng) == 0 { return scalar(&rng, inFlow: inFlow) }
            return collection(&rng, depth: depth, inFlow: inFlow)
        }

        static func collection<R: RandomNumberGenerator>(_ rng: inout R, depth: Int, inFlow: Bool) -> PlainNode {
            let count = Int.random(in: 0...4, using: &rng)
            // Empty collections can only be written in flow style.
            let flow = inFlow || count == 0 || Int.random(in: 0...3, using: &rng) == 0
            if Bool.random(using: &rng) {
                return .sequence((0..<count).map { _ in node(&rng, depth: depth + 1, inFlow: flow) }, flow: flow)
            }
            var entries: [PlainEntry] = []
            for _ in 0..<count {
                let (key, style) = key(&rng)
                guard !entries.contains(where: { $0.key == key }) else { continue }
                entries.append(PlainEntry(key: key, keyStyle: style, value: node(&rng, depth: depth + 1, inFlow: flow)))
            }
            return .mapping(entries, flow: flow || entries.isEmpty)
        }
    }

    /// Writes a tree as YAML.
    struct Writer {
        var output = ""

        static func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20 || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}":
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }

        static func inline(_ text: String, _ style: ScalarStyle) -> String {
            switch style {
            case .plain: text
            case .singleQuoted: "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
            default: quoted(text)
            }
        }

        /// A node on one line (flow style, or a scalar that fits there).
        static func flow(_ node: PlainNode) -> String {
            switch node {
            case .scalar(let text, let style): inline(text, style)
            case .sequence(let items, _): "[" + items.map(flow).joined(separator: ", ") + "]"
            case .mapping(let entries, _): "{" + entries.map { inline($0.key, $0.keyStyle) + ": " + flow($0.value) }.joined(separator: ", ") + "}"
            }
        }

        /// The text after `key:` or `-`: the value on this line, or a block below it.
        mutating func value(_ node: PlainNode, indent: Int) {
            let pad = String(repeating: " ", count: indent + 2)
            switch node {
            case .scalar(let text, .literal):
                output += " |\n" + text.split(separator: "\n").map { pad + $0 + "\n" }.joined()
            case .scalar(let text, .folded):
                output += " >\n" + pad + text.dropLast() + "\n"
            case .sequence(_, false), .mapping(_, false):
                output += "\n"
                block(node, indent: indent + 2)
            default:
                output += " " + Self.flow(node) + "\n"
            }
        }

        mutating func block(_ node: PlainNode, indent: Int) {
            let pad = String(repeating: " ", count: indent)
            switch node {
            case .sequence(let items, false):
                for item in items {
                    output += pad + "-"
                    value(item, indent: indent)
                }
            case .mapping(let entries, false):
                for entry in entries {
                    output += pad + Self.inline(entry.key, entry.keyStyle) + ":"
                    value(entry.value, indent: indent)
                }
            default:
                output += pad + Self.flow(node) + "\n"
            }
        }
    }

    static let trees = Generator<PlainNode, Shrink.None<PlainNode>> { rng in
        TreeMaker.collection(&rng, depth: 0, inFlow: false)
    }

    @Test func generatedTreesRoundTrip() async {
        await propertyCheck(count: 400, input: Self.trees) { tree in
            var writer = Writer()
            writer.block(tree, indent: 0)
            let result = parseYAML(writer.output)
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map { "\($0.location) \($0.message)" })\n\(writer.output)")
            let root = result.document?.root
            #expect(root.map(PlainNode.init) == tree, "\(writer.output)")
        }
    }

    /// A flat mapping of unicode keys and values, one pair a line: every key at column 1,
    /// every value where the key's characters (Unicode scalars) end plus ": ".
    @Test func columnsOfGeneratedLinesCountUnicodeScalars() async {
        let piece = Gen.element(of: ["a", "é", "e\u{301}", "日本", "😀", "👩‍👩‍👧", "x y", "\u{FEFF}z", "Ω"])
        let side = piece.array(of: 1...5).map { $0.compactMap { $0 }.joined() }
        let input = zip(side, side).array(of: 1...10)
        await propertyCheck(count: 200, input: input) { pairs in
            // Quote every key and value so any text is allowed; number the keys to keep them distinct.
            let lines = pairs.enumerated().map { (Writer.quoted("\($0.offset)" + $0.element.0), Writer.quoted($0.element.1)) }
            let text = lines.map { "\($0.0): \($0.1)\n" }.joined()
            let result = parseYAML(text)
            #expect(result.diagnostics.isEmpty)
            guard let root = result.document?.root else { return }
            #expect(root.pairs.count == lines.count)
            for (index, pair) in root.pairs.enumerated() where index < lines.count {
                let (key, value) = lines[index]
                let keyEnd = column(after: key)
                #expect(span(pair.key) == "\(index + 1):1-\(index + 1):\(keyEnd)", "\(text)")
                let valueStart = column(after: key + ": ")
                #expect(span(pair.value) == "\(index + 1):\(valueStart)-\(index + 1):\(column(after: key + ": " + value))", "\(text)")
                #expect(pair.value.text == pairs[index].1)
            }
        }
    }
}
