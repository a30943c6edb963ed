import CYAML
import StorekeeperCore
public import StorekeeperDiagnostics

/// The outcome of parsing one file: the document, when it could be read, and
/// every problem found on the way.
public struct YAMLParseResult: Sendable {
    /// The document; nil when the text could not be parsed, was empty, or a
    /// limit stopped the parse.
    public var document: YAMLDocument?
    /// Syntax errors, limits, duplicate keys, bad aliases and merge keys.
    public var diagnostics: [Diagnostic]
}

/// Parses YAML text into a located node tree with libyaml's event parser.
///
/// Exactly one document per file; keys must be scalars; a repeated key is an
/// error at the repetition with a note at the first; anchors, aliases and
/// `<<` merge keys are supported within `YAMLLimits`. Scalars keep their text
/// and style; nothing is converted to numbers or booleans here.
public enum YAMLParser {
    /// Parses `bytes` (UTF-8, or UTF-16 with a byte order mark) read from `file`.
    public static func parse(_ bytes: [UInt8], file: String, limits: YAMLLimits = .default) -> YAMLParseResult {
        parse(bytes, file: file, limits: limits, streaming: nil)
    }

    /// Parses as `parse(_:file:limits:)`, but hands each item of the
    /// sequence under the top-level key `stream.key` to `stream.consumer` as
    /// soon as the item is complete, and drops the items it used from the
    /// tree: a large list is then never held whole.
    package static func parse(
        _ bytes: [UInt8], file: String, limits: YAMLLimits, streaming stream: (key: String, consumer: any YAMLItemConsumer)?
    ) -> YAMLParseResult {
        if bytes.count > limits.maxFileSize {
            let diagnostic = Diagnostic(
                .error, rule: YAMLRuleID.limit,
                "the file is \(ByteCount(bytes.count)), over the limit of \(ByteCount(limits.maxFileSize)); split it into fragments with `include`, or raise the limit with --max-file-size",
                at: SourceLocation(file: file, line: 1, column: 1))
            return YAMLParseResult(document: nil, diagnostics: [diagnostic])
        }
        switch UTF16Input.convert(bytes) {
        case .notUTF16:
            return build(bytes, file: file, limits: limits, streaming: stream)
        case .converted(let utf8):
            return build(utf8, file: file, limits: limits, streaming: stream)
        case .invalid(let prefix):
            let position = prefix.withUnsafeBufferPointer { SourceText.position(ofByte: prefix.count, in: $0) }
            let diagnostic = Diagnostic(
                .error, rule: YAMLRuleID.syntax,
                "the file is not valid UTF-16 (a broken character or surrogate pair here); save it as UTF-8",
                at: SourceLocation(file: file, line: position.line, column: position.column))
            return YAMLParseResult(document: nil, diagnostics: [diagnostic])
        }
    }

    private static func build(
        _ bytes: [UInt8], file: String, limits: YAMLLimits, streaming stream: (key: String, consumer: any YAMLItemConsumer)?
    ) -> YAMLParseResult {
        bytes.withUnsafeBufferPointer { buffer in
            var builder = TreeBuilder(file: file, limits: limits, source: buffer, streaming: stream)
            return builder.run()
        }
    }
}

extension YAMLParser {
    /// The file's text as UTF-8: UTF-16 (with a byte order mark) converted,
    /// anything else as it is. For quoting source lines.
    package static func utf8Text(of bytes: [UInt8]) -> [UInt8] {
        if case .converted(let utf8) = UTF16Input.convert(bytes) { return utf8 }
        return bytes
    }
}

/// Receives the items of a streamed sequence while the document is parsed.
package protocol YAMLItemConsumer: AnyObject {
    /// Called once, when the streamed sequence opens, with the top-level
    /// pairs written before it (valid only during the call).
    func begin(preceding: [YAMLNode.Pair])
    /// Called with each item as soon as it is complete. The node, and every
    /// node reached from it, is valid only during the call. Return true when
    /// the item has been fully used: its nodes are then dropped from the tree
    /// (unless an anchor defined inside it might still be aliased), and the
    /// final document's sequence lists only the items that were kept.
    func consume(_ item: YAMLNode) -> Bool
    /// Called, in order among the `consume` calls, for each item kept in
    /// the tree instead: declined, written as an alias, or holding an anchor.
    func kept()
}

/// A byte count in the units people read: "17.2 MiB", "512 bytes".
public struct ByteCount: CustomStringConvertible, Sendable {
    let bytes: Int

    /// Wraps a number of bytes.
    public init(_ bytes: Int) { self.bytes = bytes }

    /// The count with a binary unit.
    public var description: String {
        if bytes < 1024 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        let text = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
        return "\(text) \(units[unit])"
    }
}
