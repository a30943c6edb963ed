import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML

/// Decodes `persistence` and `restore`, each in its short form (a name) or as a mapping.
enum PersistenceDecoder {
    enum PersistenceKey: String, CaseIterable, Sendable { case strategy, record }
    enum RestoreKey: String, CaseIterable, Sendable { case policy, trigger, selection }
    static let persistenceKeys = YAMLKeyTable<PersistenceKey>()
    static let restoreKeys = YAMLKeyTable<RestoreKey>()

    static func decodePersistence(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Persistence? {
        if node.kind == .scalar {
            guard let strategy = context.enumeration(node, "persistence strategy", as: PersistenceStrategy.self) else { return nil }
            return Persistence(strategy: strategy, location: node.location)
        }
        guard context.expectMapping(node, "'persistence'") else { return nil }
        var strategy: Located<PersistenceStrategy>?
        var sawStrategy = false
        var record: Located<RecordKind>?
        var recordKey: YAMLNode?
        var ok = true
        for pair in node.pairs {
            switch pair.key.key(in: persistenceKeys) {
            case .strategy?:
                sawStrategy = true
                strategy = context.enumeration(pair.value, "persistence strategy")
            case .record?:
                recordKey = pair.key
                record = context.enumeration(pair.value, "record kind")
                if record == nil { ok = false }
            case nil:
                context.unknownKey(pair.key, value: pair.value, in: "'persistence'", known: persistenceKeys.names)
            }
        }
        if !sawStrategy { context.missing("strategy", in: node, of: "'persistence'", example: "receipt") }
        guard let strategy else { return nil }
        if let recordKey, strategy.value != .userDefaults, strategy.value != .icloud {
            context.error(CatalogRuleID.notApplicable, "'record' applies to the user-defaults and icloud strategies, not \(strategy.value.rawValue); remove it", at: recordKey)
            ok = false
        }
        guard ok else { return nil }
        return Persistence(strategy: strategy, record: record, location: node.location)
    }

    static func decodeRestore(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Restore? {
        if node.kind == .scalar {
            guard let policy = context.enumeration(node, "restore policy", as: RestorePolicy.self) else { return nil }
            return Restore(policy: policy, location: node.location)
        }
        guard context.expectMapping(node, "'restore'") else { return nil }
        var policy: Located<RestorePolicy>?
        var sawPolicy = false
        var trigger: Located<RestoreTrigger>?
        var selection: Located<RestoreSelection>?
        var optionKeys: [YAMLNode] = []
        var ok = true
        for pair in node.pairs {
            switch pair.key.key(in: restoreKeys) {
            case .policy?:
                sawPolicy = true
                policy = context.enumeration(pair.value, "restore policy")
            case .trigger?:
                optionKeys.append(pair.key)
                trigger = context.enumeration(pair.value, "restore trigger")
                if trigger == nil { ok = false }
            case .selection?:
                optionKeys.append(pair.key)
                selection = context.enumeration(pair.value, "restore selection")
                if selection == nil { ok = false }
            case nil:
                context.unknownKey(pair.key, value: pair.value, in: "'restore'", known: restoreKeys.names)
            }
        }
        if !sawPolicy { context.missing("policy", in: node, of: "'restore'", example: "receipt-refresh") }
        guard let policy else { return nil }
        if policy.value == .none {
            for key in optionKeys {
                context.error(CatalogRuleID.notApplicable, "'\(key.text ?? "")' has no effect when the restore policy is none; remove it", at: key)
                ok = false
            }
        }
        guard ok else { return nil }
        return Restore(policy: policy, trigger: trigger, selection: selection, location: node.location)
    }
}
