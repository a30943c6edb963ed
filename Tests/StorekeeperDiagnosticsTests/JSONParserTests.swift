import StorekeeperCore
@testable import StorekeeperDiagnostics
import StorekeeperJSON
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    // MARK: Helpers

    /// Parses `input`, recording an issue if it fails.
    private func parse(_ input: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> JSONValue? {
        do {
            return try JSONParser().parse(input)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Expects parsing `bytes` with `parser` to fail with exactly this error.
    private func expectError(
        _ bytes: [UInt8], parser: JSONParser = JSONParser(), _ line: Int, _ column: Int, _ message: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        do {
            let value = try parser.parse(bytes)
            Issue.record("expected an error, parsed \(value)", sourceLocation: sourceLocation)
        } catch {
            #expect(
                error == JSONParseError(line: line, column: column, message: message), sourceLocation: sourceLocation)
        }
    }

    private func expectError(
        _ input: String, parser: JSONParser = JSONParser(), _ line: Int, _ column: Int, _ message: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        expectError(Array(input.utf8), parser: parser, line, column, message, sourceLocation: sourceLocation)
    }

    // MARK: Values

    static let scalarsAndContainers: [(String, JSONValue)] = [
        ("null", .null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .integer(0)),
        ("-0", .integer(0)),
        ("42", .integer(42)),
        ("-17", .integer(-17)),
        ("9223372036854775807", .integer(Int.max)),
        ("-9223372036854775808", .integer(Int.min)),
        (#""""#, .string("")),
        (#""hello""#, .string("hello")),
        ("[]", .array([])),
        ("{}", .object([])),
        (#"[1, "a", null, true, false, [], {}]"#, .array([1, "a", nil, true, false, [], .object([])])),
        (
            #"{"n": 1, "s": "x", "b": false, "z": null}"#,
            .object([(key: "n", value: 1), (key: "s", value: "x"), (key: "b", value: false), (key: "z", value: nil)])
        ),
    ]

    @Test("parses every kind of value at the top level", arguments: scalarsAndContainers)
    func values(input: String, expected: JSONValue) {
        #expect(parse(input) == expected)
    }

    @Test("allows space, tab, line feed and carriage return around and between tokens")
    func whitespace() {
        #expect(parse(" \t\r\n 7 \n\r\t ") == 7)
        #expect(parse("[ 1 ,\n\t2\r\n]") == [1, 2])
        #expect(parse("{\r\n  \"a\"\t:\n 1 ,\"b\" : [ ] }") == ["a": 1, "b": []])
    }

    @Test("keeps object members in document order")
    func memberOrder() {
        let value = parse(#"{"zebra": 1, "apple": 2, "mango": 3, "banana": 4}"#)
        guard case let .object(members)? = value else {
            Issue.record("not an object: \(String(describing: value))")
            return
        }
        let keys: [String] = members.map { $0.key }
        let values: [JSONValue] = members.map { $0.value }
        #expect(keys == ["zebra", "apple", "mango", "banana"])
        #expect(values == [1, 2, 3, 4])
        // JSONValue's == compares order, so the sorted order must not match.
        #expect(value != ["apple": 2, "banana": 4, "mango": 3, "zebra": 1])
    }

    @Test("parses nested arrays and objects")
    func nested() {
        let input = #"""
            {
              "products": [
                {"id": "gems.small", "price": 99, "tags": ["consumable", "starter"], "meta": {}},
                {"id": "pro", "price": -1, "tags": [], "meta": {"tier": {"level": [1, [2, [3]]]}}}
              ],
              "count": 2,
              "empty": [[], [{}], {"a": []}]
            }
            """#
        let expected: JSONValue = [
            "products": [
                ["id": "gems.small", "price": 99, "tags": ["consumable", "starter"], "meta": .object([])],
                ["id": "pro", "price": -1, "tags": [], "meta": ["tier": ["level": [1, [2, [3]]]]]],
            ],
            "count": 2,
            "empty": [[], [.object([])], ["a": []]],
        ]
        #expect(parse(input) == expected)
    }

    @Test("allows arrays and objects exactly as deep as the limit")
    func depthAtLimit() throws {
        let atDefault = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        var expected: JSONValue = []
        for _ in 1..<64 { expected = [expected] }
        #expect(parse(atDefault) == expected)
        #expect(try JSONParser(maxDepth: 3).parse(#"{"a": [{"b": 1}]}"#) == ["a": [["b": 1]]])
        #expect(try JSONParser(maxDepth: 0).parse("12") == 12)
    }

    @Test("allows input exactly as large as the limit")
    func sizeAtLimit() throws {
        #expect(try JSONParser(maxSize: 12).parse("[1, 2, 3, 4]") == [1, 2, 3, 4])
        #expect(try JSONParser(maxSize: 12).parse(Array("[1, 2, 3, 4]".utf8)) == [1, 2, 3, 4])
    }

    // MARK: Strings

    @Test("decodes every escape")
    func escapes() {
        #expect(parse(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{08} \u{0C} \n \r \t"))
        #expect(parse(#""\u0041\u00e9\u00E9\u20AC\u0000\u001f\uFFFF""#) == .string("Aéé€\u{0}\u{1F}\u{FFFF}"))
        #expect(parse(#""a\nb\tc""#) == .string("a\nb\tc"))
        #expect(parse(#"{"k\u00e9y": "v\\"}"#) == ["kéy": "v\\"])
    }

    @Test("combines escaped surrogate pairs into one scalar")
    func surrogatePairs() {
        #expect(parse(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(parse(#""x\ud834\udd1ey""#) == .string("x𝄞y"))
        #expect(parse(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
        #expect(parse(#""\uD800\uDC00""#) == .string("\u{10000}"))
    }

    @Test("keeps raw non-ASCII text, DEL and U+2028 in strings")
    func rawText() {
        let text = "Café ☕️ Über 日本 😀 e\u{301} \u{7F} \u{2028}\u{2029} \u{10FFFF}"
        let quoted = "\"" + text + "\""
        #expect(parse(quoted) == .string(text))
        let object = "{" + quoted + ": [" + quoted + "]}"
        let expected = JSONValue.object([(key: text, value: .array([.string(text)]))])
        #expect(parse(object) == expected)
    }

    @Test("parses a String and its UTF-8 bytes alike")
    func stringAndBytes() throws {
        let text = #"{"a": ["é", 1, {"b": null}]}"#
        #expect(try JSONParser().parse(text) == JSONParser().parse(Array(text.utf8)))
        #expect(try JSONParser().parse(text) == ["a": ["é", 1, ["b": nil]]])
    }

    // MARK: Round trip

    private static var controlAndNonASCII: String {
        var scalars = String.UnicodeScalarView()
        for value in UInt32(0)...0xA0 {
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return String(scalars) + "\u{2028}\u{2029} é☕️ 日本 😀 \u{10FFFF} \\ \" /"
    }

    static let roundTripValues: [JSONValue] = [
        .string(controlAndNonASCII),
        [
            "version": 1,
            "names": ["tab\there", "quote\"d", "nul\u{0}", "😀", ""],
            "limits": [.integer(Int.min), .integer(Int.max), 0, -1],
            "nested": ["a": [[], .object([]), [nil, true, false]], "b": .object([])],
            "key\n\u{1B}é": .string(controlAndNonASCII),
        ],
        [[[["deep": [["er": "est"]]]]]],
        .object((0..<40).map { (key: "k\($0)", value: .integer($0 * 7 - 100)) }),
    ]

    @Test("reads back what JSONWriter writes, pretty and compact", arguments: roundTripValues)
    func roundTrip(value: JSONValue) throws {
        for writer in [JSONWriter(), JSONWriter(indentation: nil), JSONWriter(indentation: 4)] {
            let text = writer.serialize(value)
            #expect(try JSONParser().parse(text) == value)
            #expect(try JSONParser().parse(Array(text.utf8)) == value)
        }
    }

    // MARK: Errors

    @Test("formats errors as line:column: message")
    func errorDescription() {
        let message = "expected ',' or '}' after an object member, found ']'"
        let error = JSONParseError(line: 3, column: 14, message: message)
        #expect(error.description == "3:14: expected ',' or '}' after an object member, found ']'")
        #expect("\(error)" == "3:14: expected ',' or '}' after an object member, found ']'")
    }

    @Test("refuses trailing commas")
    func trailingComma() {
        expectError(
            "[1, 2,]", 1, 7, "expected a value after ',' in an array, found ']' (trailing commas are not allowed)")
        expectError(
            #"{"a": 1,}"#, 1, 9,
            "expected a string key after ',' in an object, found '}' (trailing commas are not allowed)")
        expectError("[1,,2]", 1, 4, "expected a value after ',' in an array, found ','")
    }

    @Test("refuses a key without a colon, and other misplaced tokens")
    func structure() {
        expectError(#"{"a" 1}"#, 1, 6, "expected ':' after the object key 'a', found '1'")
        expectError(#"{"a": 1]"#, 1, 8, "expected ',' or '}' after an object member, found ']'")
        expectError(#"{"a": 1 "b": 2}"#, 1, 9, #"expected ',' or '}' after an object member, found '"'"#)
        expectError("[1}", 1, 3, "expected ',' or ']' after an array element, found '}'")
        expectError("[1 true]", 1, 4, "expected ',' or ']' after an array element, found 'true'")
        expectError("{1: 2}", 1, 2, "expected a string key or '}' after '{', found '1'")
        expectError("{a: 2}", 1, 2, "expected a string key or '}' after '{', found 'a'")
        expectError(#"{"a":}"#, 1, 6, "expected a value after ':' in an object, found '}'")
        expectError("[", 1, 2, "expected a value or ']' after '[', found the end of the input")
        expectError(#"{"a": [1"#, 1, 9, "expected ',' or ']' after an array element, found the end of the input")
        expectError(#"{"a": 1"#, 1, 8, "expected ',' or '}' after an object member, found the end of the input")
        expectError("[tru]", 1, 2, "expected a value or ']' after '[', found 'tru'")
        expectError("True", 1, 1, "expected a JSON value, found 'True'")
        expectError("'a'", 1, 1, #"expected a JSON value, found "'""#)
        expectError("+1", 1, 1, "expected a JSON value, found '+'")
        expectError("[é]", 1, 2, "expected a value or ']' after '[', found 'é' (U+00E9)")
        expectError([0x5B, 0xFF, 0x5D], 1, 2, "expected a value or ']' after '[', found byte 0xFF")
    }

    @Test("counts lines at LF, CR LF and CR, and columns in Unicode scalars")
    func positions() {
        expectError("{\r\n  \"a\": 1,\r\n  \"b\" 2\r\n}", 3, 7, "expected ':' after the object key 'b', found '2'")
        expectError("[\r\r1 2]", 3, 3, "expected ',' or ']' after an array element, found '2'")
        expectError("[\n1,\n\n  x]", 4, 3, "expected a value after ',' in an array, found 'x'")
        expectError(#"["é😀", 1 2]"#, 1, 10, "expected ',' or ']' after an array element, found '2'")
        expectError("[\"日本\",\n \"é\", 1 x]", 2, 9, "expected ',' or ']' after an array element, found 'x'")
    }

    @Test("refuses an unterminated string, at its opening quote")
    func unterminatedString() {
        let message = #"unterminated string: expected a closing '"' before the end of the input"#
        expectError(#"["abc"#, 1, 2, message)
        expectError("[1,\n  \"ab\\", 2, 3, message)
        expectError(#""\u12"#, 1, 1, message)
        expectError(#""\uD83D\"#, 1, 1, message)
        expectError(#""\uD83D"#, 1, 1, message)
        expectError(#""\uD83D\uDE"#, 1, 1, message)
        expectError("\"", 1, 1, message)
    }

    @Test("refuses raw control characters in strings")
    func controlCharacters() {
        expectError("[\"a\tb\"]", 1, 4, #"unescaped control character U+0009 in a string: expected it written as \t"#)
        expectError("\"a\nb\"", 1, 3, #"unescaped control character U+000A in a string: expected it written as \n"#)
        expectError(
            "\"\u{0}\"", 1, 2, #"unescaped control character U+0000 in a string: expected it written as \u0000"#)
        expectError(
            "\"\u{1F}\"", 1, 2, #"unescaped control character U+001F in a string: expected it written as \u001F"#)
    }

    @Test("refuses unknown escapes and bad \\u digits")
    func badEscapes() {
        let expected = #"invalid escape: expected one of \" \\ \/ \b \f \n \r \t \uXXXX after a backslash, found "#
        expectError(#""a\x""#, 1, 3, expected + "'x'")
        expectError(#""\xyz""#, 1, 2, expected + "'x'")
        expectError(#""\'""#, 1, 2, expected + #""'""#)
        expectError("\"\\\t\"", 1, 2, expected + "a tab")
        expectError(#""\U0041""#, 1, 2, expected + "'U'")
        expectError(#""\u12G4""#, 1, 6, #"expected four hex digits after '\u', found 'G'"#)
        expectError(#""\u12""#, 1, 6, #"expected four hex digits after '\u', found '"'"#)
    }

    @Test("refuses lone surrogates")
    func loneSurrogates() {
        let high = #"lone surrogate \uD800: expected an escaped low surrogate (\uDC00 to \uDFFF) right after it"#
        expectError(#""\uD800""#, 1, 2, high)
        expectError(#""ab\uD800x""#, 1, 4, high)
        expectError(#""\uD800\u0041""#, 1, 2, high)
        expectError(#""\uD800\uD800""#, 1, 2, high)
        expectError(#""\uD800\n""#, 1, 2, high)
        expectError(
            #""x\uDC00""#, 1, 3,
            #"lone surrogate \uDC00: expected it right after an escaped high surrogate (\uD800 to \uDBFF)"#)
        expectError(
            #""\uDFFF\uD800""#, 1, 2,
            #"lone surrogate \uDFFF: expected it right after an escaped high surrogate (\uD800 to \uDBFF)"#)
    }

    @Test("refuses invalid UTF-8 in strings, where it is")
    func invalidUTF8() {
        let quote: UInt8 = 0x22
        expectError([quote, 0x61, 0xFF, quote], 1, 3, "invalid UTF-8 in a string: byte 0xFF cannot start a character")
        expectError([quote, 0x80, quote], 1, 2, "invalid UTF-8 in a string: byte 0x80 cannot start a character")
        // Overlong encoding of '/'.
        expectError([quote, 0xC0, 0xAF, quote], 1, 2, "invalid UTF-8 in a string: byte 0xC0 cannot start a character")
        let malformed = "invalid UTF-8 in a string: the sequence starting with byte "
        expectError([quote, 0xC3, quote], 1, 2, malformed + "0xC3 is truncated or malformed")
        expectError([quote, 0xC3], 1, 2, malformed + "0xC3 is truncated or malformed")
        // An encoded surrogate (U+D800), an overlong three-byte form, and a scalar above U+10FFFF.
        expectError([quote, 0xED, 0xA0, 0x80, quote], 1, 2, malformed + "0xED is truncated or malformed")
        expectError([quote, 0xE0, 0x80, 0xAF, quote], 1, 2, malformed + "0xE0 is truncated or malformed")
        expectError([quote, 0xF4, 0x90, 0x80, 0x80, quote], 1, 2, malformed + "0xF4 is truncated or malformed")
        // The column counts the scalars before: quote, é, €, 😀.
        let prefix: [UInt8] = [quote] + Array("é€😀".utf8)
        expectError(prefix + [0xFE, quote], 1, 5, "invalid UTF-8 in a string: byte 0xFE cannot start a character")
        // In a key too, and on a later line.
        expectError(
            Array("{\n  \"".utf8) + [0xE2, 0x82] + Array("\": 1}".utf8), 2, 4,
            malformed + "0xE2 is truncated or malformed")
    }

    @Test("refuses numbers with a fraction or an exponent")
    func nonIntegers() {
        expectError("[1.5]", 1, 2, "only integers are allowed here, found '1.5', which has a fraction")
        expectError(#"{"a": -0.0}"#, 1, 7, "only integers are allowed here, found '-0.0', which has a fraction")
        expectError("1.", 1, 1, "only integers are allowed here, found '1.', which has a fraction")
        expectError("1.5e3", 1, 1, "only integers are allowed here, found '1.5e3', which has a fraction")
        expectError("1e5", 1, 1, "only integers are allowed here, found '1e5', which has an exponent")
        expectError("[0, -2E+3]", 1, 5, "only integers are allowed here, found '-2E+3', which has an exponent")
    }

    @Test("refuses integers outside Int's range")
    func overflow() {
        let range = "is out of range: expected one from -9223372036854775808 to 9223372036854775807"
        expectError("9223372036854775808", 1, 1, "the integer '9223372036854775808' \(range)")
        expectError("[-9223372036854775809]", 1, 2, "the integer '-9223372036854775809' \(range)")
        expectError(
            String(repeating: "9", count: 100), 1, 1,
            "the integer '\(String(repeating: "9", count: 40))...' \(range)")
    }

    @Test("refuses leading zeros and a minus sign without digits")
    func malformedIntegers() {
        expectError("01", 1, 1, "leading zeros are not allowed in numbers, found '01'")
        expectError("[1, -007]", 1, 5, "leading zeros are not allowed in numbers, found '-007'")
        expectError("00", 1, 1, "leading zeros are not allowed in numbers, found '00'")
        expectError("-", 1, 2, "expected a digit after '-', found the end of the input")
        expectError("[-]", 1, 3, "expected a digit after '-', found ']'")
        expectError("- 1", 1, 2, "expected a digit after '-', found a space")
        expectError("-a", 1, 2, "expected a digit after '-', found 'a'")
    }

    @Test("refuses anything after the value")
    func trailingGarbage() {
        let expected = "expected the end of the input after the JSON value, found "
        expectError("{} x", 1, 4, expected + "'x'")
        expectError("1 2", 1, 3, expected + "'2'")
        expectError("nulll", 1, 5, expected + "'l'")
        expectError("[1]]", 1, 4, expected + "']'")
        expectError("\"a\"\n\n,", 3, 1, expected + "','")
        expectError("0x1F", 1, 2, expected + "'x1F'")
        expectError("true\u{0}", 1, 5, expected + "control character U+0000")
    }

    @Test("refuses empty and blank input")
    func emptyInput() {
        expectError("", 1, 1, "expected a JSON value, found the end of the input")
        expectError([], 1, 1, "expected a JSON value, found the end of the input")
        expectError("  \n\t", 2, 2, "expected a JSON value, found the end of the input")
    }

    @Test("refuses a leading byte order mark")
    func byteOrderMark() {
        let message = "the input starts with a UTF-8 byte order mark (bytes EF BB BF), which JSON text must not have"
        expectError([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], 1, 1, message)
        expectError("\u{FEFF}{}", 1, 1, message)
        expectError("\u{FEFF}", 1, 1, message)
        // Elsewhere it is an ordinary character: allowed in strings, unexpected outside them.
        #expect(parse("\"\u{FEFF}\"") == .string("\u{FEFF}"))
        expectError(" \u{FEFF}1", 1, 2, "expected a JSON value, found '\u{FEFF}' (U+FEFF)")
    }

    @Test("refuses a repeated key in one object, at the repeat")
    func duplicateKeys() {
        expectError(#"{"a": 1, "b": 2, "a": 3}"#, 1, 18, "duplicate key 'a'")
        // Keys are compared after unescaping.
        expectError(#"{"é": 1, "\u00e9": 2}"#, 1, 10, "duplicate key 'é'")
        // Control characters in the key are escaped in the message.
        expectError(#"{"a\nb": 1,"a\nb": 2}"#, 1, 12, #"duplicate key 'a\u000Ab'"#)
        // Past the size where duplicates are found by hashing.
        let members = (0..<30).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let input = "{" + members + ", \"k17\": 0}"
        expectError(input, 1, input.count - 8, "duplicate key 'k17'")
        #expect(parse("{" + members + ", \"k30\": 0}") != nil)
        // The same key in different objects is fine.
        #expect(parse(#"{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}"#) == ["a": ["a": 1], "b": [["a": 2], ["a": 3]]])
    }

    @Test("refuses nesting deeper than the limit, at the opening bracket")
    func tooDeep() {
        let message = "arrays and objects are nested too deeply: expected at most 3 levels"
        expectError("[[[[1]]]]", parser: JSONParser(maxDepth: 3), 1, 4, message)
        expectError(#"{"a": [{"b": {}}]}"#, parser: JSONParser(maxDepth: 3), 1, 14, message)
        expectError(
            "[]", parser: JSONParser(maxDepth: 0), 1, 1,
            "arrays and objects are nested too deeply: expected at most 0 levels")
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        expectError(deep, 1, 65, "arrays and objects are nested too deeply: expected at most 64 levels")
    }

    @Test("refuses input larger than the limit before reading it")
    func tooLarge() {
        expectError(
            "[1, 2, 3, 4]", parser: JSONParser(maxSize: 10), 1, 1,
            "the input is 12 bytes, larger than the limit of 10 bytes")
        // Reported even though the input is malformed from its first byte.
        expectError(
            [0xFF, 0xFF, 0xFF], parser: JSONParser(maxSize: 2), 1, 1,
            "the input is 3 bytes, larger than the limit of 2 bytes")
        expectError("1", parser: JSONParser(maxSize: 0), 1, 1, "the input is 1 byte, larger than the limit of 0 bytes")
        #expect(JSONParser().maxSize == 64 << 20)
        #expect(JSONParser().maxDepth == 64)
    }

    @Test("fails on 100,000 nested '[' with the depth error instead of crashing")
    func hostileNesting() {
        let brackets = [UInt8](repeating: 0x5B, count: 100_000)
        expectError(brackets, 1, 65, "arrays and objects are nested too deeply: expected at most 64 levels")
        // Without a usable limit it still cannot crash: the nesting is on the heap, not the call stack.
        expectError(
            brackets, parser: JSONParser(maxDepth: 1_000_000), 1, 100_001,
            "expected a value or ']' after '[', found the end of the input")
    }
}
