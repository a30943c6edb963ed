import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// The members of one object of a StoreKit configuration file, read by key:
/// each read is checked for kind and located, and the members never read
/// are reported at the end (`finish`), so that nothing is left out unsaid.
struct ObjectFields {
    let node: StoreKitNode
    let members: [StoreKitNode.Member]
    /// The object's JSON path: `products[0]`.
    let path: String
    /// The object as messages name it: "a product".
    let what: String
    private(set) var read: Set<String> = []

    /// The fields of `node`, or nil (reported) when it is not an object.
    init?(_ node: StoreKitNode, path: String, what: String, context: inout ReadingContext) {
        guard let members = node.members else {
            context.error(StoreKitRuleID.wrongKind, "\(path.isEmpty ? "the file's top level" : "`\(path)`") should be \(what) (an object), not \(node.kindDescription)", at: node.range)
            return nil
        }
        self.node = node
        self.members = members
        self.path = path
        self.what = what
    }

    /// The member named `key`, marked as read.
    mutating func member(_ key: String) -> StoreKitNode.Member? {
        read.insert(key)
        return node[key]
    }

    /// Marks a member as read without reading it (a key the caller reports itself).
    mutating func skip(_ key: String) { read.insert(key) }

    private func missing(_ key: String, example: String, context: inout ReadingContext) {
        context.error(
            StoreKitRuleID.missingKey, "\(path.isEmpty ? "the file" : "`\(path)`") has no `\(key)`; \(what) needs one, like \"\(key)\" : \(example)",
            at: SourceRange(start: node.range.start))
    }

    private func wrongKind(_ member: StoreKitNode.Member, expected: String, context: inout ReadingContext) {
        context.error(
            StoreKitRuleID.wrongKind, "`\(Self.join(path, member.key))` should be \(expected), not \(member.value.kindDescription)",
            at: member.value.range)
    }

    /// A string member.
    mutating func string(_ key: String, required: Bool = true, example: String, context: inout ReadingContext) -> Located<String>? {
        guard let member = member(key) else {
            if required { missing(key, example: example, context: &context) }
            return nil
        }
        guard case .string(let text) = member.value.content else {
            wrongKind(member, expected: "a string such as \(example)", context: &context)
            return nil
        }
        return Located(text, at: member.value.range)
    }

    /// A whole-number member.
    mutating func integer(_ key: String, required: Bool = true, example: String, context: inout ReadingContext) -> Located<Int>? {
        guard let member = member(key) else {
            if required { missing(key, example: example, context: &context) }
            return nil
        }
        guard case .integer(let number) = member.value.content else {
            wrongKind(member, expected: "a whole number such as \(example)", context: &context)
            return nil
        }
        return Located(number, at: member.value.range)
    }

    /// A boolean member.
    mutating func bool(_ key: String, context: inout ReadingContext) -> Located<Bool>? {
        guard let member = member(key) else { return nil }
        guard case .bool(let flag) = member.value.content else {
            wrongKind(member, expected: "true or false", context: &context)
            return nil
        }
        return Located(flag, at: member.value.range)
    }

    /// An array member: the member and its elements (empty when absent and not required).
    mutating func array(_ key: String, required: Bool = false, context: inout ReadingContext) -> (member: StoreKitNode.Member?, elements: [StoreKitNode])? {
        guard let member = member(key) else {
            if required { missing(key, example: "[ ... ]", context: &context) }
            return required ? nil : (nil, [])
        }
        guard let elements = member.value.elements else {
            wrongKind(member, expected: "an array", context: &context)
            return nil
        }
        return (member, elements)
    }

    /// A string member from a fixed list, with the nearest spelling suggested when wrong.
    mutating func enumeration<E: RawRepresentable & CaseIterable>(
        _ key: String, as type: E.Type, named name: String, context: inout ReadingContext
    ) -> Located<E>? where E.RawValue == String {
        let names = E.allCases.map(\.rawValue)
        guard let text = string(key, example: "\"\(names.first ?? "")\"", context: &context) else { return nil }
        if let value = E(rawValue: text.value) { return Located(value, at: text.range) }
        context.error(
            StoreKitRuleID.invalidValue,
            "'\(text.value)' is not a \(name)\(Suggestion.didYouMean(text.value, in: names)) (expected one of: \(names.joined(separator: ", ")))",
            at: text.range)
        return nil
    }

    /// `path.key`, or `key` at the top level.
    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Reports every member not read: a known key the catalog has no place
    /// for (`kept`, with why) as a note, any other key as a warning.
    func finish(kept: [String: String], known: [String], context: inout ReadingContext) {
        for member in members where !read.contains(member.key) {
            if let reason = kept[member.key] {
                context.notImported.add(path: Self.join(path, member.key), range: member.keyRange, reason: reason)
            } else {
                let candidates = known + kept.keys.sorted()
                context.report(
                    .warning, StoreKitRuleID.unknownKey,
                    "unknown key '\(member.key)' in \(what) (`\(Self.join(path, member.key))`), not imported (`export --base` keeps it)\(Suggestion.didYouMean(member.key, in: candidates))",
                    at: member.keyRange)
            }
        }
    }
}
