import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON

/// `persistence` and `restore`, each in its short form (a name) or as a mapping.
enum PersistenceSchema {
    /// The strategies that keep a record of their own (and so take `record`).
    static let strategiesWithRecord: [PersistenceStrategy] = [.userDefaults, .icloud]

    static let persistence: JSONValue = [
        "description": "Where the record of a purchase is kept. Short form: the strategy. Long form: {strategy, record}.",
        "anyOf": [
            SchemaKeywords.enumeration(PersistenceStrategy.self, "The strategy, in the short form."),
            SchemaKeywords.closedObject(
                "The persistence, in the long form.",
                properties: [
                    ("strategy", SchemaKeywords.enumeration(PersistenceStrategy.self, "Where the record is kept (required).")),
                    ("record", SchemaKeywords.enumeration(RecordKind.self, "What the record holds (user-defaults and icloud only).", default: .flag)),
                ],
                required: ["strategy"],
                more: [("allOf", [
                    SchemaKeywords.when(
                        [
                            "properties": ["strategy": ["not": ["enum": SchemaKeywords.strings(strategiesWithRecord.map(\.rawValue))]]],
                            "required": ["strategy"],
                        ],
                        then: ["properties": SchemaKeywords.forbidden(["record"])]),
                ])]),
        ],
    ]

    static let restore: JSONValue = [
        "description": "How purchases are restored. Short form: the policy. Long form: {policy, trigger, selection}.",
        "anyOf": [
            SchemaKeywords.enumeration(RestorePolicy.self, "The policy, in the short form."),
            SchemaKeywords.closedObject(
                "The restore, in the long form.",
                properties: [
                    ("policy", SchemaKeywords.enumeration(RestorePolicy.self, "How the purchase is restored (required).")),
                    ("trigger", SchemaKeywords.enumeration(RestoreTrigger.self, "What starts a restore (not with policy none).", default: .user)),
                    ("selection", SchemaKeywords.enumeration(RestoreSelection.self, "Which content a restore downloads again (not with policy none).", default: .all)),
                ],
                required: ["policy"],
                more: [("allOf", [
                    SchemaKeywords.when(
                        SchemaKeywords.keyEquals("policy", RestorePolicy.none.rawValue),
                        then: ["properties": SchemaKeywords.forbidden(["trigger", "selection"])]),
                ])]),
        ],
    ]
}
