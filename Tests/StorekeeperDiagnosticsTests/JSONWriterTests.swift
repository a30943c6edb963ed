import Foundation
import StorekeeperDiagnostics
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
}
