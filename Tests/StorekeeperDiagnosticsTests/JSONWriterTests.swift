import Foundation
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
import Testing

@Suite("JSON writer")
struct JSONWriterTests {
    @Test(
        "escapes quotes, backslashes and control characters",
        arguments: [
            ("plain", #""plain""#),
            ("a\"b", #""a\"b""#),
            ("back\\slash", #""back\\slash""#),
            ("line\nbreak", #""line\nbreak""#),
            ("cr\rlf\n", #""cr\rlf\n""#),
            ("tab\there", #""tab\there""#),
            ("\u{08}\u{0C}", #""\b\f""#),
            ("nul\u{0}", #""nul\u0000""#),
            ("\u{1}\u{1B}\u{1F}", #""\u0001\u001b\u001f""#),
            ("del\u{7F}", #""del\u007f""#),
            ("c1\u{85}\u{9F}", #""c1\u0085\u009f""#),
            ("js\u{2028}\u{2029}", #""js\u2028\u2029""#),
            ("a/b", #""a/b""#),
            ("", #""""#),
        ])
    func escaping(input: String, expected: String) {
        #expect(JSONWriter.quoted(input) == expected)
    }

    @Test("keeps non-ASCII text as UTF-8")
    func nonASCII() {
        let text = "Café ☕️ Über 日本 😀 e\u{301}"
        #expect(JSONWriter.quoted(text) == "\"" + text + "\"")
        #expect(Array(JSONWriter.quoted(text).utf8) == Array(("\"" + text + "\"").utf8))
        #expect(!JSONWriter.quoted(text).contains("\\u"))
    }

    @Test("escapes every control character so that a parser reads the string back")
    func roundTrip() throws {
        var scalars = String.UnicodeScalarView()
        for value in UInt32(0)...0xA0 {
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        let original = String(scalars) + "\u{2028}\u{2029}é☕️"
        let json = JSONWriter(indentation: nil).serialize([.string(original)])
        #expect(!json.unicodeScalars.contains { $0.value < 0x20 })
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
        #expect(parsed == [original])
    }

    @Test("pretty-prints nested values with the given indentation")
    func pretty() {
        let value: JSONValue = [
            "name": "x", "flags": [true, false, nil], "empty": [], "nothing": .object([]),
            "nested": ["n": -3],
        ]
        #expect(
            JSONWriter().serialize(value) == """
                {
                  "name": "x",
                  "flags": [
                    true,
                    false,
                    null
                  ],
                  "empty": [],
                  "nothing": {},
                  "nested": {
                    "n": -3
                  }
                }
                """)
        #expect(
            JSONWriter(indentation: 4).serialize(["a": [1]]) == """
                {
                    "a": [
                        1
                    ]
                }
                """)
        #expect(JSONWriter(indentation: 0).serialize(["a": 1]) == "{\n\"a\": 1\n}")
        #expect(JSONWriter(indentation: -2).indentation == 0)
    }

    @Test("writes compact output without whitespace")
    func compact() {
        let value: JSONValue = ["b": 1, "a": ["x", 2, true, nil], "c": [:], "d": [], "e": .integer(Int.min)]
        #expect(
            JSONWriter(indentation: nil).serialize(value)
                == #"{"b":1,"a":["x",2,true,null],"c":{},"d":[],"e":-9223372036854775808}"#)
    }

    @Test("writes scalars at the top level and appends to existing text")
    func scalars() {
        let writer = JSONWriter()
        #expect(writer.serialize(nil) == "null")
        #expect(writer.serialize(true) == "true")
        #expect(writer.serialize(42) == "42")
        #expect(writer.serialize("s") == "\"s\"")
        var output = "prefix "
        writer.write(["k": "v"], to: &output)
        JSONWriter.appendQuoted("q", to: &output)
        #expect(output == "prefix {\n  \"k\": \"v\"\n}\"q\"")
    }

    @Test("compares objects by member order")
    func equality() {
        let ab: JSONValue = ["a": 1, "b": 2]
        #expect(ab == ["a": 1, "b": 2])
        #expect(ab != ["b": 2, "a": 1])
        #expect(ab != ["a": 1])
        #expect(ab != ["a": 1, "b": 3])
        #expect(JSONValue.array([1, "1"]) != [1, 1])
        #expect(JSONValue.integer(1) != .string("1"))
        #expect(JSONValue.null == nil)
    }

    // MARK: Escaping, byte for byte

    /// The escape the writer must produce for each escaped code point, spelled out.
    static let expectedEscapes: [(UInt32, String)] = {
        let named: [UInt32: String] = [0x08: #"\b"#, 0x09: #"\t"#, 0x0A: #"\n"#, 0x0C: #"\f"#, 0x0D: #"\r"#]
        let hex = Array("0123456789abcdef")
        var escapes: [(UInt32, String)] = [(0x22, #"\""#), (0x5C, #"\\"#), (0x2028, #"\u2028"#), (0x2029, #"\u2029"#)]
        for value in Array(0x00...0x1F) + Array(0x7F...0x9F) {
            let code = UInt32(value)
            escapes.append((code, named[code] ?? "\\u00" + String(hex[value >> 4]) + String(hex[value & 0xF])))
        }
        return escapes
    }()

    @Test("escapes every escaped code point byte for byte, alone and between other text")
    func everyEscape() {
        #expect(Self.expectedEscapes.count == 2 + 2 + 32 + 33)
        for (value, escape) in Self.expectedEscapes {
            let scalar = String(Character(Unicode.Scalar(value)!))
            #expect(Array(JSONWriter.quoted(scalar).utf8) == Array(("\"" + escape + "\"").utf8), "U+\(value)")
            let neighbours: [(before: String, beforeText: String, after: String, afterText: String)] = [
                ("a", "a", "b", "b"), ("é", "é", "€", "€"), ("😀", "😀", "日本", "日本"),
                ("\u{A0}", "\u{A0}", "\u{2027}", "\u{2027}"), ("", "", "\u{85}", #"\u0085"#),
                ("\u{2029}", #"\u2029"#, "x\u{1F}", #"x\u001f"#), ("\\", #"\\"#, "", ""),
            ]
            for (before, beforeText, after, afterText) in neighbours {
                let expected = "\"" + beforeText + escape + afterText + "\""
                #expect(
                    Array(JSONWriter.quoted(before + scalar + after).utf8) == Array(expected.utf8),
                    "U+\(value) between \(before.debugDescription) and \(after.debugDescription)")
            }
        }
    }

    @Test(
        "leaves unescaped neighbours of escaped code points alone",
        arguments: [
            0x20, 0x21, 0x23, 0x2F, 0x5B, 0x5D, 0x7E, // ASCII around '"', '\' and DEL
            0xA0, 0xA9, 0xBF, 0xC2, 0xE2, 0xFF, 0x100, // U+00A0 on: C2 A0–C2 BF, then C3 …, C4 80
            0x2000, 0x2026, 0x2027, 0x202A, 0x202F, 0x20AC, 0x2615, 0x2FFF, // E2-led sequences
            0xE000, 0xFEFF, 0xFFFD, 0xFFFF, 0x1F600, 0x10FFFF,
        ] as [UInt32])
    func unescapedNeighbours(value: UInt32) {
        let text = String(Character(Unicode.Scalar(value)!))
        for sample in [text, "x" + text, text + "x", text + text + "\n" + text] {
            let expected = "\"" + sample.replacingOccurrences(of: "\n", with: #"\n"#) + "\""
            #expect(Array(JSONWriter.quoted(sample).utf8) == Array(expected.utf8), "U+\(value)")
        }
    }

    @Test(
        "escapes runs mixing plain and escaped text",
        arguments: [
            ("", #""""#),
            ("\"\"\"", #""\"\"\"""#),
            ("\\\"\n", #""\\\"\n""#),
            ("abc\ndef\tghi", #""abc\ndef\tghi""#),
            ("\nstart and end\n", #""\nstart and end\n""#),
            ("Café\u{85}Über\u{9F}", "\"Café\\u0085Über\\u009f\""),
            ("\u{80}\u{81}\u{A0}\u{A9}\u{9F}", "\"\\u0080\\u0081\u{A0}©\\u009f\""),
            ("日本\u{2028}語\u{2029}", "\"日本\\u2028語\\u2029\""),
            ("\u{2027}\u{2028}\u{2029}\u{202A}", "\"\u{2027}\\u2028\\u2029\u{202A}\""),
            ("…€\u{2028}", "\"…€\\u2028\""),
            ("😀\u{0}😀\u{7F}😀", "\"😀\\u0000😀\\u007f😀\""),
            ("👩‍👩‍👧\r\n🇫🇷", "\"👩‍👩‍👧\\r\\n🇫🇷\""),
            ("e\u{301}\u{1B}[0m", "\"e\u{301}\\u001b[0m\""),
            ("ends with ©", "\"ends with ©\""),
            ("ends with €", "\"ends with €\""),
            ("\u{1F}\u{20}\u{7E}\u{7F}\u{9F}\u{A0}", "\"\\u001f ~\\u007f\\u009f\u{A0}\""),
            ("a/b</script>", #""a/b</script>""#),
        ])
    func mixedRuns(input: String, expected: String) {
        #expect(Array(JSONWriter.quoted(input).utf8) == Array(expected.utf8))
        var output = "prefix:"
        JSONWriter.appendQuoted(input, to: &output)
        #expect(Array(output.utf8) == Array(("prefix:" + expected).utf8))
    }

    @Test("finds escapes at every offset of a long plain run")
    func escapesAtEveryOffset() {
        for (value, escape) in Self.expectedEscapes {
            let scalar = String(Character(Unicode.Scalar(value)!))
            for offset in 0..<20 {
                let prefix = String(repeating: "p", count: offset)
                let suffix = String(repeating: "s", count: 19 - offset)
                #expect(
                    Array(JSONWriter.quoted(prefix + scalar + suffix).utf8) == Array(("\"" + prefix + escape + suffix + "\"").utf8),
                    "U+\(value) at \(offset)")
            }
        }
        for plain in ["é", "€", "\u{2027}", "😀", "\u{A0}", "~", " "] {
            for offset in 0..<20 {
                let text = String(repeating: "p", count: offset) + plain + String(repeating: "s", count: 19 - offset)
                #expect(Array(JSONWriter.quoted(text).utf8) == Array(("\"" + text + "\"").utf8), "\(plain.debugDescription) at \(offset)")
            }
        }
    }

    @Test("escapes long strings the same as short ones")
    func longStrings() {
        let chunk = "plain ASCII text, é, 日本, 😀 and a \u{85} and \u{2028} and \"quotes\"\n"
        let long = String(repeating: chunk, count: 2_000)
        let escapedChunk = #"plain ASCII text, é, 日本, 😀 and a \u0085 and \u2028 and \"quotes\"\n"#
        #expect(Array(JSONWriter.quoted(long).utf8) == Array(("\"" + escapedChunk.repeated(2_000) + "\"").utf8))
        #expect(Array(JSONWriter.quoted(long).utf8) == Array(ReferenceWriter.quoted(long).utf8))
    }

    // MARK: Against a per-scalar reference

    @Test("quotes a few hundred generated strings exactly as the per-scalar reference does")
    func generatedStrings() {
        var generator = SeededGenerator(seed: 0x5EED_2028)
        for _ in 0..<600 {
            let text = generator.string()
            #expect(
                Array(JSONWriter.quoted(text).utf8) == Array(ReferenceWriter.quoted(text).utf8),
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("serializes generated documents exactly as the reference does, pretty and compact")
    func generatedDocuments() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<120 {
            let value = generator.value(depth: 0)
            for indentation in [nil, 0, 1, 2, 4] as [Int?] {
                let expected = ReferenceWriter(indentation: indentation).serialize(value)
                #expect(Array(JSONWriter(indentation: indentation).serialize(value).utf8) == Array(expected.utf8))
                var output = "> "
                JSONWriter(indentation: indentation).write(value, to: &output)
                #expect(Array(output.utf8) == Array(("> " + expected).utf8))
            }
        }
    }

    @Test(
        "writes integers as String(_:) does",
        arguments: [
            Int.min, Int.min + 1, -1_000_000_000_000_000_000, -999_999_999_999_999_999, -10, -9, -1,
            0, 1, 9, 10, 11, 99, 100, 101, 999, 1_000, 65_535, 1 << 32, 999_999_999_999_999_999,
            1_000_000_000_000_000_000, Int.max - 1, Int.max,
        ])
    func integers(number: Int) {
        #expect(JSONWriter().serialize(.integer(number)) == String(number))
        #expect(JSONWriter(indentation: nil).serialize([.integer(number)]) == "[\(number)]")
    }

    @Test("writes deep nesting with the right indentation")
    func deepNesting() {
        var value: JSONValue = "leaf"
        for level in 0..<150 { value = level.isMultiple(of: 2) ? [value] : ["k": value] }
        for indentation in [nil, 0, 1, 3] as [Int?] {
            #expect(
                Array(JSONWriter(indentation: indentation).serialize(value).utf8)
                    == Array(ReferenceWriter(indentation: indentation).serialize(value).utf8))
        }
    }

    // MARK: Inline scalar arrays

    @Test("is off by default")
    func inlineScalarArraysDefault() {
        #expect(!JSONWriter().inlineScalarArrays)
        #expect(!JSONWriter(indentation: 4).inlineScalarArrays)
        #expect(JSONWriter(inlineScalarArrays: true).inlineScalarArrays)
        #expect(JSONWriter(inlineScalarArrays: true).indentation == 2)
        #expect(JSONWriter() != JSONWriter(inlineScalarArrays: true))
        var writer = JSONWriter()
        writer.inlineScalarArrays = true
        #expect(writer == JSONWriter(indentation: 2, inlineScalarArrays: true))
        #expect(JSONWriter().serialize(["a": [1, 2]]) == "{\n  \"a\": [\n    1,\n    2\n  ]\n}")
    }

    @Test("writes arrays of scalars on one line when asked")
    func inlineScalarArrays() {
        let value: JSONValue = [
            "tags": ["a", "b\n\u{2028}"],
            "scalars": [nil, true, false, -1, 0, .integer(Int.min), ""],
            "one": [7],
            "empty": [],
            "matrix": [[1, 2], [3, 4], []],
            "mixed": [1, ["x"], "y"],
            "objects": [["k": 1, "l": [true]], .object([])],
            "empties": [[], .object([])],
            "object": ["a": 1, "b": "c"],
        ]
        #expect(
            JSONWriter(inlineScalarArrays: true).serialize(value) == #"""
                {
                  "tags": ["a", "b\n\u2028"],
                  "scalars": [null, true, false, -1, 0, -9223372036854775808, ""],
                  "one": [7],
                  "empty": [],
                  "matrix": [
                    [1, 2],
                    [3, 4],
                    []
                  ],
                  "mixed": [
                    1,
                    ["x"],
                    "y"
                  ],
                  "objects": [
                    {
                      "k": 1,
                      "l": [true]
                    },
                    {}
                  ],
                  "empties": [
                    [],
                    {}
                  ],
                  "object": {
                    "a": 1,
                    "b": "c"
                  }
                }
                """#)
        #expect(JSONWriter(indentation: 4, inlineScalarArrays: true).serialize([[1, [2, 3]]]) == "[\n    [\n        1,\n        [2, 3]\n    ]\n]")
        #expect(JSONWriter(indentation: 0, inlineScalarArrays: true).serialize(["a": [1, "2"]]) == "{\n\"a\": [1, \"2\"]\n}")
    }

    @Test("inlines top-level arrays of scalars and leaves scalars alone")
    func inlineTopLevel() {
        let writer = JSONWriter(inlineScalarArrays: true)
        #expect(writer.serialize([1, 2, 3]) == "[1, 2, 3]")
        #expect(writer.serialize([]) == "[]")
        #expect(writer.serialize([[]]) == "[\n  []\n]")
        #expect(writer.serialize(.object([])) == "{}")
        #expect(writer.serialize("s") == "\"s\"")
        #expect(writer.serialize(5) == "5")
        var output = "x="
        writer.write(["a", nil], to: &output)
        #expect(output == "x=[\"a\", null]")
    }

    @Test("leaves compact output and object-only documents unchanged")
    func inlineUnaffected() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<60 {
            let value = generator.value(depth: 0)
            #expect(
                JSONWriter(indentation: nil, inlineScalarArrays: true).serialize(value)
                    == JSONWriter(indentation: nil).serialize(value))
            let text = JSONWriter(inlineScalarArrays: true).serialize(value)
            #expect(try JSONParser().parse(text) == value)
            // Only array layout differs: without whitespace outside strings, both agree.
            #expect(Self.withoutLayout(text) == Self.withoutLayout(JSONWriter().serialize(value)))
        }
        let objects: JSONValue = ["a": ["b": 1, "c": ["d": nil]], "e": "f"]
        #expect(JSONWriter(inlineScalarArrays: true).serialize(objects) == JSONWriter().serialize(objects))
    }

    /// `json` without the spaces and line breaks outside string literals.
    static func withoutLayout(_ json: String) -> String {
        var result = String.UnicodeScalarView()
        var inString = false
        var escaped = false
        for character in json.unicodeScalars { // not Characters: `"` may combine with what follows
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == " " || character == "\n" {
                continue
            }
            result.append(character)
        }
        return String(result)
    }
}

// MARK: - Reference implementation and generator

/// The writer as it used to be: per scalar, with `String` appends. Slow but obviously right.
private struct ReferenceWriter {
    var indentation: Int?

    func serialize(_ value: JSONValue) -> String {
        var output = ""
        write(value, depth: 0, to: &output)
        return output
    }

    static func quoted(_ string: String) -> String {
        var output = "\""
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029:
                let digits = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    private func write(_ value: JSONValue, depth: Int, to output: inout String) {
        switch value {
        case .null: output += "null"
        case let .bool(flag): output += flag ? "true" : "false"
        case let .integer(number): output += String(number)
        case let .string(text): output += Self.quoted(text)
        case let .array(elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                newline(depth: depth + 1, to: &output)
                write(element, depth: depth + 1, to: &output)
            }
            newline(depth: depth, to: &output)
            output += "]"
        case let .object(members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                newline(depth: depth + 1, to: &output)
                output += Self.quoted(member.key) + (indentation == nil ? ":" : ": ")
                write(member.value, depth: depth + 1, to: &output)
            }
            newline(depth: depth, to: &output)
            output += "}"
        }
    }

    private func newline(depth: Int, to output: inout String) {
        guard let indentation else { return }
        output += "\n" + String(repeating: " ", count: indentation * depth)
    }
}

/// SplitMix64: deterministic strings and documents for comparisons.
private struct SeededGenerator {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { random.next() }

    mutating func below(_ bound: Int) -> Int { random.next(below: bound) }

    /// Code points around every escaping boundary, weighted towards the interesting ones.
    static let interesting: [UInt32] =
        Array(0x00...0x21) + [0x22, 0x2F, 0x5B, 0x5C, 0x5D, 0x7E] + Array(0x7F...0xA1)
        + [0xBF, 0xC0, 0xC2, 0xE2, 0xE9, 0xFF, 0x100, 0x301, 0x7FF, 0x800]
        + Array(0x2026...0x202A) + [0x2000, 0x200D, 0x20AC, 0x2615, 0x2FFF, 0x3000, 0x65E5, 0xD7FF]
        + [0xE000, 0xFE0F, 0xFEFF, 0xFFFD, 0xFFFF, 0x10000, 0x1F1EB, 0x1F600, 0x1F469, 0x10FFFF]

    mutating func scalar() -> Unicode.Scalar {
        switch below(10) {
        case 0..<4: return Unicode.Scalar(UInt8(0x20 + below(0x5F))) // printable ASCII
        case 4..<8: return Unicode.Scalar(Self.interesting[below(Self.interesting.count)])!
        default:
            while true { // anything valid
                let ranges: [ClosedRange<UInt32>] = [0...0x7FF, 0x800...0xFFFF, 0x10000...0x10FFFF]
                let range = ranges[below(ranges.count)]
                if let scalar = Unicode.Scalar(range.lowerBound + UInt32(below(Int(range.upperBound - range.lowerBound) + 1))) {
                    return scalar
                }
            }
        }
    }

    mutating func string() -> String {
        var scalars = String.UnicodeScalarView()
        let length = below(4) == 0 ? below(200) : below(24)
        for _ in 0..<length { scalars.append(scalar()) }
        return String(scalars)
    }

    mutating func value(depth: Int) -> JSONValue {
        switch below(depth >= 4 ? 4 : 7) {
        case 0: return nil
        case 1: return .bool(below(2) == 0)
        case 2:
            let specials = [Int.min, Int.max, 0, -1, 9, 10, -10]
            return .integer(below(3) == 0 ? specials[below(specials.count)] : Int(bitPattern: UInt(next())) >> below(64))
        case 3: return .string(string())
        case 4, 5:
            return .array((0..<below(5)).map { _ in value(depth: depth + 1) })
        default:
            return .object((0..<below(5)).map { _ in (key: string(), value: value(depth: depth + 1)) })
        }
    }
}

extension String {
    fileprivate func repeated(_ count: Int) -> String { String(repeating: self, count: count) }
}
