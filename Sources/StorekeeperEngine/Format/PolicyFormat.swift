/// Names shared by the compiled form's writer and reader
/// (`docs/policy-format.md` describes the format, `docs/policy.schema.json`
/// is its JSON Schema).
enum PolicyFormat {
    /// The value of the document's `format` member.
    static let name = "storekeeper-policy"
}
