/// A compiled policy larger than the limit it is read with
/// (`PolicyFormat.maxSize` by default): `PolicyEncoder` refuses to write it
/// and `PolicyDecoder` to read it, with the same words.
package struct PolicySizeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The policy's size, in bytes.
    package var size: Int
    /// The limit, in bytes.
    package var limit: Int
    /// Whether the policy is on one line (`--compact`), when known: if it
    /// is not, compacting it may be enough.
    package var isCompact: Bool?

    /// Creates the error.
    package init(size: Int, limit: Int, isCompact: Bool? = nil) {
        self.size = size
        self.limit = limit
        self.isCompact = isCompact
    }

    /// How large, the limit, and what would help.
    package var description: String {
        let compact = switch isCompact {
        case true?: ""
        case false?: "compile it with --compact (one line, about a third smaller), or "
        case nil: "compile it with --compact if it is indented, or "
        }
        return "the compiled policy is \(Self.bytes(size)), over the limit of \(Self.bytes(limit)) that a policy is read with; "
            + "\(compact)split the catalog into several catalogs, each compiled to its own policy "
            + "(fragments do not help: they are compiled into the same policy)"
    }

    /// `512 MiB (536870912 bytes)`, or plain bytes below 1 MiB.
    private static func bytes(_ count: Int) -> String {
        count < 1 << 20 ? "\(count) bytes" : "\(count >> 20) MiB (\(count) bytes)"
    }
}
