import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML

/// Decodes `delivery`, in its short form (`built-in`) or as a mapping.
enum DeliveryDecoder {
    enum Key: String, CaseIterable, Sendable { case model, unlocks, grants, content }
    enum ContentKey: String, CaseIterable, Sendable { case source, path, size, storage }
    static let keys = YAMLKeyTable<Key>()
    static let contentKeys = YAMLKeyTable<ContentKey>()
    /// Apple hosts at most 2 GB of content per product.
    static let appleHostedLimit = ByteSize(bytes: 2_000_000_000)

    static func decode(_ node: YAMLNode, context: inout YAMLDecodingContext, references: inout [ReferenceUse]) -> Delivery? {
        if node.kind == .scalar {
            guard let model = context.enumeration(node, "delivery model", as: DeliveryModel.self) else { return nil }
            return Delivery(model: model, location: node.location)
        }
        guard context.expectMapping(node, "'delivery'") else { return nil }
        var model: Located<DeliveryModel>?
        var sawModel = false
        var unlocks: [Located<String>] = []
        var grants: [Grant] = []
        var content: Content?
        var ok = true
        for pair in node.pairs {
            switch pair.key.key(in: keys) {
            case .model?:
                sawModel = true
                model = context.enumeration(pair.value, "delivery model")
            case .unlocks?:
                guard let names = context.stringList(pair.value, "'unlocks'", example: "a feature") else { ok = false; continue }
                unlocks = names
                references.append(contentsOf: names.map { ReferenceUse(kind: .feature, name: $0) })
            case .grants?:
                guard let decoded = decodeGrants(pair.value, context: &context, references: &references) else { ok = false; continue }
                grants = decoded
            case .content?:
                content = decodeContent(pair.value, context: &context)
                if content == nil { ok = false }
            case nil:
                context.unknownKey(pair.key, value: pair.value, in: "'delivery'", known: keys.names)
            }
        }
        if !sawModel { context.missing("model", in: node, of: "'delivery'", example: "built-in") }
        guard let model, ok else { return nil }
        return Delivery(model: model, unlocks: unlocks, grants: grants, content: content, location: node.location)
    }

    static func decodeGrants(_ node: YAMLNode, context: inout YAMLDecodingContext, references: inout [ReferenceUse]) -> [Grant]? {
        guard context.expectMapping(node, "'grants'") else { return nil }
        var grants: [Grant] = []
        for pair in node.pairs {
            guard let balance = context.string(pair.key, "a balance name", example: "coins"),
                  let amount = context.integer(pair.value, "the amount of '\(balance.value)'", in: 1...1_000_000_000)
            else { continue }
            references.append(ReferenceUse(kind: .balance, name: balance))
            grants.append(Grant(balance: balance, amount: amount))
        }
        if node.pairs.isEmpty {
            context.error(CatalogRuleID.missingKey, "'grants' is empty; name a declared balance and an amount, like `{coins: 100}`", at: node)
        }
        return grants.count == node.pairs.count ? grants : nil
    }

    static func decodeContent(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Content? {
        guard context.expectMapping(node, "'content'") else { return nil }
        var source: Located<ContentSource>?
        var sawSource = false
        var path: Located<String>?
        var size: Located<ByteSize>?
        var storage: Located<ContentStorage>?
        var storageKey: YAMLNode?
        var sawPath = false
        var ok = true
        for pair in node.pairs {
            switch pair.key.key(in: contentKeys) {
            case .source?:
                sawSource = true
                source = context.enumeration(pair.value, "content source")
            case .path?:
                sawPath = true
                path = decodePath(pair.value, context: &context)
                if path == nil { ok = false }
            case .size?:
                size = decodeSize(pair.value, context: &context)
                if size == nil { ok = false }
            case .storage?:
                storageKey = pair.key
                storage = context.enumeration(pair.value, "content storage")
                if storage == nil { ok = false }
            case nil:
                context.unknownKey(pair.key, value: pair.value, in: "'content'", known: contentKeys.names)
            }
        }
        if !sawSource { context.missing("source", in: node, of: "'content'", example: "bundle") }
        guard let source else { return nil }
        switch source.value {
        case .bundle:
            if let storageKey {
                context.error(CatalogRuleID.notApplicable, "'storage' applies to downloaded content; bundle content is inside the app, so remove it", at: storageKey)
                ok = false
            }
            if !sawPath {
                context.missing("path", in: node, of: "bundle content", example: "Levels/forest.plist")
                ok = false
            }
        case .appleHosted:
            if let size, size.value > appleHostedLimit {
                context.error(CatalogRuleID.outOfRange, "Apple hosts at most 2 GB (2,000,000,000 bytes) of content per product; this is \(size.value.bytes) bytes", at: size)
                ok = false
            }
        case .server:
            break
        }
        guard ok else { return nil }
        return Content(source: source, path: path, size: size, storage: storage, location: node.location)
    }

    /// A relative path that stays inside its root.
    static func decodePath(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<String>? {
        guard let path = context.string(node, "'path'", example: "Levels/forest.plist") else { return nil }
        if let problem = pathProblem(path.value) {
            context.error(CatalogRuleID.contentPath, "the content path '\(path.value)' \(problem)", at: node)
            return nil
        }
        return path
    }

    /// What is wrong with a content path, or nil.
    static func pathProblem(_ path: String) -> String? {
        if let control = path.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            return "contains \(NamePatterns.describe(control)); a path is printable text"
        }
        if path.hasPrefix("/") || path.hasPrefix("~") {
            return "is absolute; write it relative to the content's root, like Levels/forest.plist"
        }
        let bytes = Array(path.utf8)
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            if bytes[colon...].starts(with: Array("://".utf8)) { return "is a URL; write a path relative to the content's root" }
            if colon == 1 { return "is absolute (a drive letter); write it relative to the content's root, like Levels/forest.plist" }
        }
        if bytes.contains(UInt8(ascii: "\\")) { return "uses '\\'; separate folders with '/'" }
        var depth = 0
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..":
                depth -= 1
                if depth < 0 { return "leaves its root through '..'; keep it inside, like Levels/forest.plist" }
            default:
                depth += 1
            }
        }
        if depth == 0 { return "names no file; write a path like Levels/forest.plist" }
        return nil
    }

    static func decodeSize(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<ByteSize>? {
        guard let text = context.text(node, "'size'", example: "45MB") else { return nil }
        guard let size = ByteSize(parsing: text) else {
            context.error(CatalogRuleID.invalidSize, "'\(text)' is not a size; write a number and a unit, like 45MB, 800KB or 1.5GB", at: node)
            return nil
        }
        guard size.bytes > 0 else {
            // 0.5B or 0.0001KB is more than 0 as written, but less than one byte.
            let isZero = !text.contains { ("1"..."9").contains($0) }
            context.error(CatalogRuleID.outOfRange, isZero ? "a content size must be more than 0" : "'\(text)' is less than one byte; a content size is at least 1B", at: node)
            return nil
        }
        return Located(size, at: node.range)
    }
}
