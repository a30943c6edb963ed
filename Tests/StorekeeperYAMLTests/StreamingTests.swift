import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperYAML
import Testing

/// Streaming: the items of one top-level sequence go to a consumer as soon as
/// each is complete, and the items it used are dropped from the tree.
@Suite struct StreamingTests {
    final class Recorder: YAMLItemConsumer {
        var seen: [String] = []
        var keptCount = 0
        var preceding: [String] = []
        let accept: (YAMLNode) -> Bool

        init(accept: @escaping (YAMLNode) -> Bool = { _ in true }) { self.accept = accept }

        func consume(_ item: YAMLNode) -> Bool {
            seen.append(item["name"]?.text ?? item.text ?? "?")
            return accept(item)
        }

        func kept() { keptCount += 1 }

        func begin(preceding pairs: [YAMLNode.Pair]) { preceding = pairs.compactMap(\.key.text) }
    }

    func parse(_ text: String, _ recorder: Recorder) -> YAMLParseResult {
        YAMLParser.parse(Array(text.utf8), file: "s.yaml", limits: .default, streaming: ("products", recorder))
    }

    @Test func consumedItemsAreHandedOverInOrderAndDropped() throws {
        let recorder = Recorder()
        let result = parse("a: 1\nproducts:\n  - name: one\n    x: [1, 2]\n  - name: two\n  - name: three\nb: 2\n", recorder)
        #expect(result.diagnostics.isEmpty)
        #expect(recorder.seen == ["one", "two", "three"])
        let document = try #require(result.document)
        let root = try #require(document.root)
        #expect(root["products"]?.items.count == 0)
        #expect(root["b"]?.text == "2")
        #expect(root["b"]?.location.line == 7)
        // Only the top level is left: root, a, 1, products, [], b, 2.
        #expect(document.nodeCount == 7)
        #expect(recorder.preceding == ["a"])
    }

    @Test func declinedItemsStayInTheTreeInOrder() throws {
        let recorder = Recorder { $0["name"]?.text != "two" }
        let result = parse("products:\n  - name: one\n  - name: two\n  - name: three\n", recorder)
        let products = try #require(result.document?.root?["products"])
        #expect(products.items.map { $0["name"]?.text } == ["two"])
        #expect(recorder.keptCount == 1)
    }

    @Test func itemsWithAnchorsAndAliasItemsAreKept() throws {
        let recorder = Recorder()
        let text = "products:\n  - &base {name: one}\n  - name: two\n  - *base\n"
        let result = parse(text, recorder)
        #expect(result.diagnostics.isEmpty)
        let products = try #require(result.document?.root?["products"])
        // The anchored item may be aliased later, so it stays; the alias item is never offered.
        #expect(products.items.map { $0["name"]?.text } == ["one", "one"])
        #expect(recorder.seen == ["two"])
        #expect(recorder.keptCount == 2)
    }

    @Test func onlyTheFirstSequenceUnderTheKeyStreams() throws {
        let recorder = Recorder()
        let result = parse("products:\n  - name: one\nproducts:\n  - name: two\n", recorder)
        #expect(recorder.seen == ["one"])
        #expect(result.diagnostics.map(\.rule) == ["duplicate-key"])
    }

    @Test func nestedSequencesWithTheSameKeyDoNotStream() throws {
        let recorder = Recorder()
        let result = parse("other:\n  products:\n    - name: one\n", recorder)
        #expect(recorder.seen.isEmpty)
        #expect(result.document?.root?["other"]?["products"]?.items.count == 1)
    }

    @Test func aStreamedItemTellsWhatItsMergeKeyBroughtAndTheNextItemDoesNot() throws {
        final class Merges: YAMLItemConsumer {
            var seen: [(String, [YAMLMerge])] = []
            func consume(_ item: YAMLNode) -> Bool {
                seen.append((item["name"]?.text ?? "?", item.merges))
                return true
            }
            func kept() {}
            func begin(preceding pairs: [YAMLNode.Pair]) {}
        }
        let consumer = Merges()
        let text = "defaults: &d {x: 1}\nproducts:\n  - name: one\n    <<: *d\n  - name: two\n"
        let result = YAMLParser.parse(Array(text.utf8), file: "s.yaml", limits: .default, streaming: ("products", consumer))
        #expect(result.diagnostics.isEmpty)
        #expect(consumer.seen.map(\.0) == ["one", "two"])
        #expect(consumer.seen.first?.1.map { span($0.site) } == ["4:5-4:7"])
        #expect(consumer.seen.first?.1.map(\.pairs) == [1..<2])
        // The second item reuses the first one's dropped nodes: nothing of its merge is left.
        #expect(consumer.seen.last?.1.isEmpty == true)
    }

    @Test func aliasesAfterADroppedItemStillResolve() throws {
        let recorder = Recorder()
        let result = parse("defaults: &d {x: 1}\nproducts:\n  - name: one\n    <<: *d\n  - name: two\nafter: *d\n", recorder)
        #expect(result.diagnostics.isEmpty)
        #expect(result.document?.root?["after"]?["x"]?.text == "1")
        #expect(recorder.seen == ["one", "two"])
    }
}
