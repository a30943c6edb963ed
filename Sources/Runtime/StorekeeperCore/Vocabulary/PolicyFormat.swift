/// What the compiled form's writer and reader share: its name and its size
/// limit (`docs/policy-format.md` describes the format,
/// `docs/policy.schema.json` is its JSON Schema).
public enum PolicyFormat {
    /// The value of the document's `format` member, which `PolicyEncoder`
    /// writes first so that even a damaged policy is recognised as one.
    public static let name = "storekeeper-policy"

    /// The largest compiled policy, in bytes (256 MiB): `PolicyDecoder`
    /// reads no more, so `storekeeper compile` writes no more. About
    /// 500,000 products fit, indented; more with `--compact`.
    public static let maxSize = 256 << 20

    /// The resource name of a policy bundled with an app by the build-tool
    /// plugin (StorekeeperPolicyPlugin): `storekeeper-policy.json`.
    package static let resourceName = "storekeeper-policy"

    /// The resource's extension.
    package static let resourceExtension = "json"

    /// The typing mistakes (insertions, deletions, substitutions, swapped
    /// neighbours) a `format` value may have and still name a compiled policy.
    package static let misspellingsRecognised = 3

    /// Whether a `format` value names a compiled policy: ``name`` with at
    /// most ``misspellingsRecognised`` typing mistakes, case aside. The
    /// policy's recognition, its reader and the catalog decoder all ask it.
    package static func isNamed(by format: String) -> Bool {
        // Far longer cannot be within the edits (a scalar is at most 4 bytes): not worth lowercasing.
        guard format.utf8.count <= name.utf8.count + 4 * misspellingsRecognised else { return false }
        return Suggestion.isMisspelling(format, of: name, edits: misspellingsRecognised)
    }
}
