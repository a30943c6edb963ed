import Foundation
import StorekeeperCore
@testable import StorekeeperSchema
import StorekeeperYAML
import Testing

/// The YAML to JSON conversion types scalars as the YAML language server
/// does (YAML 1.2's core schema), and knows where every value was written.
@Suite struct YAMLInstanceTests {
    func convert(_ text: String) throws -> YAMLInstance {
        try YAMLInstance(parsedDocument(text).root.orThrow())
    }

    func value(_ scalar: String) throws -> InstanceValue {
        guard case .object(let members) = try convert("v: \(scalar)\n").value, let first = members.first else {
            throw PythonSchemaValidator.Failure(description: "not a mapping")
        }
        return first.value
    }

    @Test(arguments: [
        ("true", InstanceValue.bool(true)), ("True", .bool(true)), ("TRUE", .bool(true)), ("false", .bool(false)),
        ("", .null), ("~", .null), ("null", .null), ("Null", .null), ("NULL", .null),
        ("5", .integer("5")), ("+5", .integer("5")), ("-5", .integer("-5")), ("007", .integer("7")), ("-0", .integer("0")),
        ("0x1F", .integer("31")), ("0o17", .integer("15")), ("123456789012345678901234567890", .integer("123456789012345678901234567890")),
        ("0.99", .float(0.99)), ("1.10", .float(1.1)), (".5", .float(0.5)), ("5.", .float(5)), ("-2.5e3", .float(-2500)), ("1E2", .float(100)),
        (".inf", .float(.infinity)), ("-.Inf", .float(-.infinity)), (".NaN", .float(.nan)),
    ])
    func plainScalarsAreTypedByTheCoreSchema(_ scalar: String, _ expected: InstanceValue) throws {
        #expect(try value(scalar) == expected)
    }

    @Test(arguments: [
        // YAML 1.1's booleans, and other near misses, are text in YAML 1.2.
        "yes", "no", "on", "off", "y", "n", "tRue", "0b101", "0o8", "0xG", "1_000", "1,5", "15.0.1", ".", "+", "e3", "1e", "P1M", "0.999.1", "nan", "inf",
    ])
    func otherPlainScalarsAreText(_ scalar: String) throws {
        #expect(try value(scalar) == .string(scalar))
    }

    @Test(arguments: [
        (#""5""#, InstanceValue.string("5")), ("'true'", .string("true")), (#""""#, .string("")), ("\"null\"", .string("null")),
        ("!!str 5", .string("5")), ("!!int \"5\"", .integer("5")), ("!!float 5", .float(5)), ("!!bool \"true\"", .bool(true)),
        ("!!null x", .null), ("!custom 5", .string("5")), ("! 5", .string("5")), ("!!int five", .string("five")),
    ])
    func quotedAndTaggedScalarsFollowWhatWasWritten(_ scalar: String, _ expected: InstanceValue) throws {
        #expect(try value(scalar) == expected)
    }

    @Test func blockScalarsAreText() throws {
        #expect(try convert("v: |\n  42\n").value == .object([("v", .string("42\n"))]))
        #expect(try convert("v: >-\n  true\n").value == .object([("v", .string("true"))]))
    }

    @Test func collectionsKeepTheirOrderAndTheFirstOfARepeatedKey() throws {
        let instance = try convert("b: [1, x, {c: null}]\na: {}\n")
        #expect(instance.value == .object([("b", .array([.integer("1"), .string("x"), .object([("c", .null)])])), ("a", .object([]))]))
        #expect(instance.value.json == #"{"b":[1,"x",{"c":null}],"a":{}}"#)
    }

    @Test func mergeKeysAreResolvedAndNonTextKeysAreNamedAsJSONNamesThem() throws {
        let instance = try convert("base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n1.50: a\n7: b\ntrue: c\n")
        guard case .object(let members) = instance.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["base", "m", "1.5", "7", "true"])
        #expect(members[1].value == .object([("y", .integer("3")), ("x", .integer("1"))]))
    }

    @Test func jsonTextIsWhatPythonReads() throws {
        let instance = try convert("a: 0.99\nb: 1e20\nc: .inf\nd: -.inf\ne: .nan\nf: \"quote \\\" and \\\\ and é\"\ng: 5.0\n")
        #expect(instance.value.json == #"{"a":0.99,"b":1e+20,"c":Infinity,"d":-Infinity,"e":NaN,"f":"quote \" and \\ and é","g":5.0}"#)
    }

    @Test func everyKeyAndValueHasItsPointerAndPosition() throws {
        let instance = try convert("""
            products:
              - id: x/y
                "a~b": {c: 1}
            rules: []

            """)
        let byPosition = { (line: Int, column: Int) in instance.locations(atLine: line, column: column).map { "\($0.role) \($0.pointer)" }.sorted() }
        #expect(byPosition(1, 1) == ["key /products", "value "])
        #expect(byPosition(2, 3) == ["value /products"])
        // A block mapping in a list starts where its first key does.
        #expect(byPosition(2, 5) == ["key /products/0/id", "value /products/0"])
        #expect(byPosition(2, 9) == ["value /products/0/id"])
        #expect(byPosition(3, 5) == ["key /products/0/a~0b"])
        #expect(byPosition(3, 12) == ["value /products/0/a~0b"])
        #expect(byPosition(3, 13) == ["key /products/0/a~0b/c"])
        #expect(byPosition(4, 8) == ["value /rules"])
        #expect(JSONPointer.pointer(["a/b", "~", "0"]) == "/a~1b/~0/0")
    }

    @Test func aValueReachedTwiceHasBothPointers() throws {
        let instance = try convert("a: &x {k: 1}\nb: *x\n")
        #expect(instance.locations(atLine: 1, column: 8).map(\.pointer).sorted() == ["/a/k", "/b/k"])
    }
}
