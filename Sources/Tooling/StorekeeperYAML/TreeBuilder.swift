import StorekeeperCore
import StorekeeperDiagnostics
import CYAML

/// Builds a `YAMLDocument` from libyaml's events, enforcing the limits as it
/// goes: depth is checked at every collection start (before libyaml's own
/// per-level costs can grow), alias expansion at every alias and merge.
struct TreeBuilder {
    private struct Frame {
        var node: Int32
        var pendingStart: Int
    }

    /// A stop that ends the parse: a syntax error or a limit.
    private struct Stop: Error {}

    let file: String
    let limits: YAMLLimits
    let source: UnsafeBufferPointer<UInt8>

    private var records: RawArena<NodeRecord>
    /// Scalar bytes, appended as events arrive. Their total never exceeds
    /// the source's size by much (escapes and folding only shorten text).
    private var text: RawArena<UInt8>
    /// Expanded sizes of alias targets, computed when first aliased.
    private var weights: [Int32: Int] = [:]
    private var children: RawArena<Int32>
    private var tags: [Int32: String] = [:]
    /// The `<<` keys that brought pairs into each mapping, by the mapping's
    /// node. Empty unless merge keys are used.
    private var mergeSites: [Int32: [YAMLMerge]] = [:]
    /// Nodes of the collections still open, keys and values alternating in mappings.
    private var pending: [Int32] = []
    private var frames: [Frame] = []
    private var anchors: [String: Int32] = [:]
    private var expansion = 0
    /// Where aliases were written, by their position in `pending`: the
    /// shared node has its anchor's position, but a problem with a key or
    /// merge written as an alias belongs at the alias. Empty unless aliases are used.
    /// Kept in order of position (positions only grow between closes), so a
    /// close removes its own entries from the end: a dictionary filtered at
    /// every close was quadratic with many aliases pending.
    private var aliasSites: [(position: Int, site: SourceRange)] = []
    /// The same for the items of finished sequences, by position in `children`
    /// (a `<<` list of aliases is checked after the list has closed).
    private var childSites: [Int: SourceRange] = [:]
    /// Null scalars standing in for bad aliases, already reported.
    private var placeholders: Set<Int32> = []
    private var documents = 0
    private var rootIndex: Int32 = -1
    /// Diagnostics kept up to the shared ceiling (a file of a million
    /// repeated keys must not make a million diagnostics); past it, counted.
    private var diagnostics = DiagnosticCap()

    /// Streaming: the top-level key whose sequence's items go to `consumer`.
    private let streamedKey: [UInt8]?
    private let consumer: (any YAMLItemConsumer)?
    /// The depth (number of open frames) at which the streamed sequence is the innermost.
    private var streamingDepth = -1
    /// Where the current streamed item's nodes, children and text begin.
    private var itemStart: (records: Int, children: Int, text: Int)?
    /// The newest node with an anchor: an item holding one is kept.
    private var lastAnchored: Int32 = -1
    /// Only the first sequence under the key streams (a repeated key is an error, and its items must not leak).
    private var streamedOnce = false

    init(file: String, limits: YAMLLimits, source: UnsafeBufferPointer<UInt8>, streaming: (key: String, consumer: any YAMLItemConsumer)? = nil) {
        self.file = file
        self.limits = limits
        self.source = source
        streamedKey = streaming.map { Array($0.key.utf8) }
        consumer = streaming?.consumer
        // A catalog has about one node per 10 bytes. Reserving more than
        // that avoids regrowth copies, and pages never touched cost nothing.
        let estimate = max(16, source.count / 8)
        // In a streaming parse most of it is reused again and again.
        records = RawArena(capacity: streaming == nil ? estimate : 4096)
        children = RawArena(capacity: streaming == nil ? estimate : 4096)
        text = RawArena(capacity: streaming == nil ? source.count + 64 : 1 << 16)
    }

    mutating func run() -> YAMLParseResult {
        guard let base = source.baseAddress, source.count > 0 else {
            return finish(emptyMessage: "the file is empty")
        }
        var completed = false
        defer {
            if !completed {
                text.discard()
                records.discard()
                children.discard()
            }
        }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            return YAMLParseResult(document: nil, diagnostics: [error(YAMLRuleID.syntax, "libyaml could not start (out of memory)", line: 1, column: 1)])
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, base, source.count)

        var event = yaml_event_t()
        do {
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    diagnostics.append(SyntaxError.diagnostic(for: parser, file: file, source: source))
                    throw Stop()
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                try handle(&event)
            }
        } catch {
            return YAMLParseResult(document: nil, diagnostics: diagnosticsWithCount())
        }
        completed = true
        return finish(emptyMessage: "the file holds no YAML document, only comments or blank lines")
    }

    private mutating func finish(emptyMessage: String) -> YAMLParseResult {
        guard rootIndex >= 0 else {
            text.discard()
            records.discard()
            children.discard()
            diagnostics.append(error(YAMLRuleID.documentCount, emptyMessage, line: 1, column: 1))
            return YAMLParseResult(document: nil, diagnostics: diagnosticsWithCount())
        }
        let document = YAMLDocument(
            file: file, records: records.finish(), text: text.finish(), children: children.finish(), tags: tags, rootIndex: rootIndex,
            merges: mergeSites)
        return YAMLParseResult(document: document, diagnostics: diagnosticsWithCount())
    }

    // MARK: Events

    private mutating func handle(_ event: inout yaml_event_t) throws {
        switch event.type {
        case YAML_SCALAR_EVENT:
            markItemStart()
            let scalar = event.data.scalar
            let index = append(
                kind: .scalar, style: Self.style(of: scalar.style).rawValue, tag: scalar.tag,
                start: event.start_mark, end: event.end_mark, first: Int32(truncatingIfNeeded: text.count),
                count: Int32(truncatingIfNeeded: scalar.length))
            text.append(scalar.value, count: scalar.length)
            register(anchor: scalar.anchor, for: index)
            try attach(index)
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            try open(.sequence, flow: start.style == YAML_FLOW_SEQUENCE_STYLE, tag: start.tag, anchor: start.anchor, mark: event.start_mark)
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            try open(.mapping, flow: start.style == YAML_FLOW_MAPPING_STYLE, tag: start.tag, anchor: start.anchor, mark: event.start_mark)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            try close(end: event.end_mark)
        case YAML_ALIAS_EVENT:
            try alias(named: event.data.alias.anchor, mark: event.start_mark, end: event.end_mark)
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                let mark = event.start_mark
                diagnostics.append(error(
                    YAMLRuleID.documentCount,
                    "a catalog file holds exactly one YAML document, and a second one starts here; move it to its own file and `include` it",
                    line: mark.line + 1, column: mark.column + 1))
                throw Stop()
            }
        default:
            break
        }
    }

    /// libyaml's scalar style as ours (libyaml counts from "any style", 0).
    private static func style(of style: yaml_scalar_style_t) -> ScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    private mutating func append(
        kind: YAMLNode.Kind, style: UInt8, tag: UnsafeMutablePointer<yaml_char_t>?,
        start: yaml_mark_t, end: yaml_mark_t, first: Int32, count: Int32
    ) -> Int32 {
        let index = Int32(records.count)
        records.append(NodeRecord(
            kind: kind, style: style, hasTag: tag != nil,
            startLine: UInt32(truncatingIfNeeded: start.line + 1), startColumn: UInt32(truncatingIfNeeded: start.column + 1),
            endLine: UInt32(truncatingIfNeeded: end.line + 1), endColumn: UInt32(truncatingIfNeeded: end.column + 1),
            first: first, count: count))
        if let tag { tags[index] = String(cString: tag) }
        return index
    }

    private mutating func register(anchor: UnsafeMutablePointer<yaml_char_t>?, for index: Int32) {
        guard let anchor else { return }
        anchors[String(cString: anchor)] = index
        lastAnchored = index
    }

    private mutating func open(
        _ kind: YAMLNode.Kind, flow: Bool, tag: UnsafeMutablePointer<yaml_char_t>?,
        anchor: UnsafeMutablePointer<yaml_char_t>?, mark: yaml_mark_t
    ) throws {
        if frames.count >= limits.maxDepth {
            diagnostics.append(error(
                YAMLRuleID.limit,
                "lists and mappings nest deeper than \(limits.maxDepth) \(limits.maxDepth == 1 ? "level" : "levels") here; a catalog needs about 6 (raise the limit with --max-depth if this is intended)",
                line: mark.line + 1, column: mark.column + 1))
            throw Stop()
        }
        markItemStart()
        let isStreamed = kind == .sequence && isStreamedKeyPending()
        let index = append(kind: kind, style: flow ? 1 : 0, tag: tag, start: mark, end: mark, first: 0, count: -1)
        register(anchor: anchor, for: index)
        if isStreamed, let consumer, let root = frames.first {
            // The root's finished pairs, all but the streamed key itself (the last pending entry).
            let end = pending.count - 1
            withView { view in
                var pairs: [YAMLNode.Pair] = []
                var position = root.pendingStart
                while position + 1 < end {
                    pairs.append(YAMLNode.Pair(
                        key: YAMLNode(storage: view, owner: nil, index: pending[position]),
                        value: YAMLNode(storage: view, owner: nil, index: pending[position + 1])))
                    position += 2
                }
                consumer.begin(preceding: pairs)
            }
        }
        frames.append(Frame(node: index, pendingStart: pending.count))
        if isStreamed { streamingDepth = frames.count }
    }

    private mutating func close(end: yaml_mark_t) throws {
        if frames.count == streamingDepth {
            streamingDepth = -1
            streamedOnce = true
        }
        guard let frame = frames.popLast() else { return }
        let node = Int(frame.node)
        let first = Int32(children.count)
        if records[node].kind == .mapping {
            try closeMapping(frame.node, from: frame.pendingStart)
        } else {
            children.append(contentsOf: pending[frame.pendingStart...])
        }
        while let last = aliasSites.last, last.position >= frame.pendingStart {
            aliasSites.removeLast()
            if records[node].kind == .sequence {
                childSites[Int(first) + last.position - frame.pendingStart] = last.site
            }
        }
        pending.removeSubrange(frame.pendingStart...)
        records[node].first = first
        records[node].count = Int32(children.count) - first
        records[node].endLine = UInt32(truncatingIfNeeded: end.line + 1)
        records[node].endColumn = UInt32(truncatingIfNeeded: end.column + 1)
        try attach(frame.node)
    }

    /// Moves a finished node into its parent, or makes it the root.
    private mutating func attach(_ index: Int32, writtenAt site: SourceRange? = nil) throws {
        guard let frame = frames.last else {
            rootIndex = index
            return
        }
        if records[Int(frame.node)].kind == .mapping, (pending.count - frame.pendingStart) % 2 == 0,
           records[Int(index)].kind != .scalar {
            diagnostics.append(Diagnostic(
                .error, rule: YAMLRuleID.complexKey,
                "a key must be a single value, not \(records[Int(index)].kind); write the key as plain text",
                at: site ?? range(of: index)))
        }
        if frames.count == streamingDepth {
            let start = itemStart
            itemStart = nil
            if let start, site == nil, Int(index) == start.records, lastAnchored < index, consumeItem(index) {
                drop(from: start)
                return
            }
            consumer?.kept()
        }
        if let site { aliasSites.append((pending.count, site)) }
        pending.append(index)
    }

    private mutating func alias(named name: UnsafeMutablePointer<yaml_char_t>?, mark: yaml_mark_t, end: yaml_mark_t) throws {
        let anchor = name.map { String(cString: $0) } ?? ""
        guard let target = anchors[anchor] else {
            let known = Suggestion.didYouMean(anchor, in: anchors.keys)
            diagnostics.append(error(
                YAMLRuleID.alias,
                "the alias *\(anchor) refers to no anchor; define `&\(anchor)` on a value above it\(known)",
                line: mark.line + 1, column: mark.column + 1))
            try attach(placeholder(mark: mark, end: end))
            return
        }
        if records[Int(target)].count < 0 {
            diagnostics.append(error(
                YAMLRuleID.alias,
                "the alias *\(anchor) is inside the value it refers to, which would make that value contain itself",
                line: mark.line + 1, column: mark.column + 1))
            try attach(placeholder(mark: mark, end: end))
            return
        }
        try expand(by: target, line: mark.line + 1, column: mark.column + 1)
        try attach(target, writtenAt: SourceRange(
            start: SourceLocation(file: file, line: mark.line + 1, column: mark.column + 1),
            end: SourceLocation(file: file, line: end.line + 1, column: end.column + 1)))
    }

    /// A null scalar standing in for a bad alias, so the rest of the tree keeps its shape.
    private mutating func placeholder(mark: yaml_mark_t, end: yaml_mark_t) -> Int32 {
        let index = append(kind: .scalar, style: ScalarStyle.plain.rawValue, tag: nil, start: mark, end: end, first: Int32(truncatingIfNeeded: text.count), count: 0)
        placeholders.insert(index)
        // Tagged, so that readers can tell it from a value the author wrote and not report it again.
        records[Int(index)].hasTag = true
        tags[index] = YAMLNode.placeholderTag
        return index
    }

    /// Charges the expanded size of `node` (a node an alias or merge adds
    /// again) against the budget, stopping the parse when it runs out.
    private mutating func expand(by node: Int32, line: Int, column: Int) throws {
        let remaining = limits.maxAliasExpansion - expansion
        expansion = saturatingAdd(expansion, weight(of: node, limit: remaining))
        if expansion > limits.maxAliasExpansion {
            diagnostics.append(error(
                YAMLRuleID.limit,
                "aliases here expand the document beyond \(limits.maxAliasExpansion) nodes, as an alias bomb would; refer to smaller values (raise the limit with --max-alias-expansion if this is intended)",
                line: line, column: column))
            throw Stop()
        }
    }

    /// How many nodes `root` stands for with every alias inside it expanded,
    /// counting no further than just past `limit`: the walk is what the
    /// budget bounds, so an alias bomb costs at most `limit` steps. Weights
    /// are computed only here, when aliases are used, never on the hot path.
    private mutating func weight(of root: Int32, limit: Int) -> Int {
        if let known = weights[root] { return known }
        var total = 0
        var stack: [Int32] = [root]
        while let node = stack.popLast() {
            if node != root, let known = weights[node] {
                total = saturatingAdd(total, known)
            } else {
                total += 1
                let record = records[Int(node)]
                if record.kind != .scalar, record.count > 0 {
                    stack.append(contentsOf: children[Int(record.first)..<Int(record.first) + Int(record.count)])
                }
            }
            if total > limit { return total }
        }
        weights[root] = total
        return total
    }

    // MARK: Streaming

    /// Whether the collection about to open is the value of the streamed
    /// top-level key: the root mapping is the only open frame and its last
    /// pending entry is that key.
    private func isStreamedKeyPending() -> Bool {
        guard let key = streamedKey, !streamedOnce, frames.count == 1, let root = frames.first,
              records[Int(root.node)].kind == .mapping, (pending.count - root.pendingStart) % 2 == 1,
              let last = pending.last
        else { return false }
        let record = records[Int(last)]
        return record.kind == .scalar && Int(record.count) == key.count
            && text[Int(record.first)..<Int(record.first) + Int(record.count)].elementsEqual(key)
    }

    /// Notes where a new item of the streamed sequence begins.
    private mutating func markItemStart() {
        if frames.count == streamingDepth, itemStart == nil {
            itemStart = (records.count, children.count, text.count)
        }
    }

    /// Lends the consumer a view of the tree so far, with the item as its node.
    private mutating func consumeItem(_ index: Int32) -> Bool {
        guard let consumer else { return false }
        return withView { view in consumer.consume(YAMLNode(storage: view, owner: nil, index: index)) }
    }

    /// Runs `body` with a document viewing the tree built so far. The view
    /// shares the arrays and is gone before they change again, so they are
    /// never copied.
    private func withView<Result>(_ body: (YAMLDocument) -> Result) -> Result {
        let view = YAMLDocument(
            file: file, records: records.buffer, text: text.buffer, children: children.buffer, tags: tags, rootIndex: -1,
            merges: mergeSites, ownsBuffers: false)
        return withExtendedLifetime(view) { body(view) }
    }

    /// Forgets a consumed item's nodes, children and text.
    private mutating func drop(from start: (records: Int, children: Int, text: Int)) {
        records.truncate(to: start.records)
        children.truncate(to: start.children)
        text.truncate(to: start.text)
        if !tags.isEmpty { tags = tags.filter { $0.key < Int32(start.records) } }
        if !mergeSites.isEmpty { mergeSites = mergeSites.filter { $0.key < Int32(start.records) } }
        if !weights.isEmpty { weights = weights.filter { $0.key < Int32(start.records) } }
        if !placeholders.isEmpty { placeholders = placeholders.filter { $0 < Int32(start.records) } }
        if !childSites.isEmpty { childSites = childSites.filter { $0.key < start.children } }
    }

    // MARK: Mappings

    /// Appends a mapping's pairs to `children`, checking keys and resolving
    /// merge keys (noting in `mergeSites` which pairs each brought).
    private mutating func closeMapping(_ node: Int32, from start: Int) throws {
        let firstChild = children.count
        var merges: [(key: Int32, keySite: SourceRange, value: Int32, site: SourceRange?)] = []
        var dropped = false
        let end = pending.count - (pending.count - start) % 2
        // Small mappings (a product's dozen keys) are checked by scanning; large ones by hashing.
        var keyIndex: [[UInt8]: Int32]? = (end - start) / 2 > 16 ? [:] : nil
        var index = start
        while index < end {
            let key = pending[index], value = pending[index + 1]
            index += 2
            let keyRecord = records[Int(key)]
            if keyRecord.kind != .scalar {
                dropped = true
                continue
            }
            if isMergeKey(keyRecord) {
                merges.append((key, site(index - 2, key), value, aliasSite(at: index - 1)))
                dropped = true
                continue
            }
            if let earlier = earlierKey(matching: key, from: start, before: index - 2, index: &keyIndex) {
                let text = string(keyRecord)
                diagnostics.append(error(
                    YAMLRuleID.duplicateKey,
                    "the key '\(text)' appears twice in this mapping, and only the first would count; remove or rename this one",
                    at: site(index - 2, key), notes: [Diagnostic.Note("'\(text)' is first set here", at: location(of: earlier))]))
                dropped = true
                continue
            }
        }
        if !dropped {
            children.append(contentsOf: pending[start..<end])
            return
        }
        // Slow path: copy the surviving pairs, then the merged ones that no explicit key overrides.
        var seen = Set<String>()
        index = start
        while index < end {
            let key = pending[index], value = pending[index + 1]
            index += 2
            let keyRecord = records[Int(key)]
            guard keyRecord.kind == .scalar else { continue }
            if isMergeKey(keyRecord) { continue }
            guard seen.insert(string(keyRecord)).inserted else { continue }
            children.append(key)
            children.append(value)
        }
        for merge in merges {
            let firstPair = (children.count - firstChild) / 2
            for source in try mergeSources(merge.value, writtenAt: merge.site) {
                let record = records[Int(source)]
                var pair = Int(record.first)
                let pairsEnd = pair + Int(record.count)
                while pair < pairsEnd {
                    let key = children[pair], value = children[pair + 1]
                    pair += 2
                    guard seen.insert(string(records[Int(key)])).inserted else { continue }
                    let keyRecord = records[Int(merge.key)]
                    try expand(by: key, line: Int(keyRecord.startLine), column: Int(keyRecord.startColumn))
                    try expand(by: value, line: Int(keyRecord.startLine), column: Int(keyRecord.startColumn))
                    children.append(key)
                    children.append(value)
                }
            }
            let endPair = (children.count - firstChild) / 2
            if endPair > firstPair {
                mergeSites[node, default: []].append(YAMLMerge(site: merge.keySite, pairs: firstPair..<endPair))
            }
        }
    }

    /// The mappings a `<<` value names: one mapping, or a list of them.
    private mutating func mergeSources(_ value: Int32, writtenAt site: SourceRange?) throws -> [Int32] {
        let record = records[Int(value)]
        if placeholders.contains(value) { return [] }
        switch record.kind {
        case .mapping:
            return [value]
        case .sequence:
            var sources: [Int32] = []
            for position in Int(record.first)..<Int(record.first + record.count) {
                let item = children[position]
                if records[Int(item)].kind == .mapping {
                    sources.append(item)
                } else {
                    diagnostics.append(error(
                        YAMLRuleID.mergeKey,
                        "a `<<` list may hold only mappings (usually aliases like *defaults), not \(records[Int(item)].kind)",
                        at: childSites[position] ?? range(of: item)))
                }
            }
            return sources
        case .scalar:
            diagnostics.append(error(
                YAMLRuleID.mergeKey,
                "`<<` merges a mapping into this one: its value must be a mapping or a list of them (usually an alias like *defaults)",
                at: site ?? range(of: value)))
            return []
        }
    }

    /// An earlier key of the same mapping with the same text, if there is one.
    /// With an index (large mappings) the key is recorded in it as well.
    private func earlierKey(matching key: Int32, from start: Int, before limit: Int, index keyIndex: inout [[UInt8]: Int32]?) -> Int32? {
        let record = records[Int(key)]
        if keyIndex != nil {
            // Bytes, not `String`: YAML keys are equal when their characters
            // are, and `String` would also equate canonically equivalent text.
            let text = text.bytes(at: Int(record.first), count: Int(record.count))
            if let earlier = keyIndex?[text] { return earlier }
            keyIndex?[text] = key
            return nil
        }
        var index = start
        while index < limit {
            let other = records[Int(pending[index])]
            if other.kind == .scalar, sameText(other, record), !isMergeKey(other) {
                return pending[index]
            }
            index += 2
        }
        return nil
    }

    // MARK: Scalars

    private func string(_ record: NodeRecord) -> String {
        text.string(at: Int(record.first), count: Int(record.count))
    }

    private func sameText(_ a: NodeRecord, _ b: NodeRecord) -> Bool {
        a.count == b.count && text.equal(at: Int(a.first), Int(b.first), count: Int(a.count))
    }

    /// A plain, untagged `<<` key.
    private func isMergeKey(_ record: NodeRecord) -> Bool {
        record.kind == .scalar && record.style == ScalarStyle.plain.rawValue && !record.hasTag && record.count == 2
            && string(record) == "<<"
    }


    // MARK: Diagnostics

    /// The diagnostics kept, and a last one saying how many were not.
    private func diagnosticsWithCount() -> [Diagnostic] {
        guard diagnostics.leftOutCount > 0 else { return diagnostics.kept }
        // The highest severity left out: warnings alone past the cap must not fail a run.
        return diagnostics.kept + [Diagnostic(
            diagnostics.highestLeftOut ?? .error, rule: YAMLRuleID.tooManyProblems,
            "\(diagnostics.leftOutCount) more problems (\(diagnostics.leftOutBySeverity)) were found in this file and not listed; fix these and run again",
            at: SourceLocation(file: file, line: 1, column: 1))]
    }

    private func location(of index: Int32) -> SourceLocation {
        let record = records[Int(index)]
        return SourceLocation(file: file, line: Int(record.startLine), column: Int(record.startColumn))
    }

    private func range(of index: Int32) -> SourceRange {
        let record = records[Int(index)]
        return SourceRange(
            start: location(of: index),
            end: SourceLocation(file: file, line: Int(record.endLine), column: Int(record.endColumn)))
    }

    /// Where the alias at a position of `pending` was written, if one was.
    /// Lookups are for the innermost open collection, whose entries are last.
    private func aliasSite(at position: Int) -> SourceRange? {
        for entry in aliasSites.reversed() {
            if entry.position == position { return entry.site }
            if entry.position < position { return nil }
        }
        return nil
    }

    /// Where the node at a position of `pending` was written: its alias, or itself.
    private func site(_ position: Int, _ index: Int32) -> SourceRange {
        aliasSite(at: position) ?? range(of: index)
    }

    private func error(_ rule: String, _ message: String, at index: Int32, notes: [Diagnostic.Note] = []) -> Diagnostic {
        Diagnostic(.error, rule: rule, message, at: range(of: index), notes: notes)
    }

    private func error(_ rule: String, _ message: String, at range: SourceRange, notes: [Diagnostic.Note] = []) -> Diagnostic {
        Diagnostic(.error, rule: rule, message, at: range, notes: notes)
    }

    private func error(_ rule: String, _ message: String, line: Int, column: Int) -> Diagnostic {
        Diagnostic(.error, rule: rule, message, at: SourceLocation(file: file, line: line, column: column))
    }
}

@inline(__always) func saturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
}
