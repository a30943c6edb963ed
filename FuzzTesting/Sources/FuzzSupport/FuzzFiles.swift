import StorekeeperCatalog
import StorekeeperCore

/// One fuzz input read as the files of a folder, so that a single input can
/// hold a catalog with its fragments and its `storekeeper.yml`.
///
/// The input is split at every line that starts with `#== ` (a YAML comment,
/// so a whole input still reads as one YAML file); the rest of that line
/// names the next file, relative to `folder`. What comes before the first
/// such line is the file named `first`:
///
/// ```yaml
/// catalog: {name: shop, format: 1}
/// include: [fragments/a.yaml]
/// #== fragments/a.yaml
/// products: []
/// ```
///
/// Names may climb out of the folder (`#== ../../secret.yaml`), so that
/// includes which leave the validated folder are tried too. A name given
/// twice keeps its last content.
public struct FuzzFiles: Sendable {
    /// The line prefix that starts a file.
    public static let marker: [UInt8] = Array("#== ".utf8)

    /// Each file's bytes by its normalized path.
    public var bytes: [String: [UInt8]]
    /// The path of the file the input starts with.
    public var firstPath: String

    /// Splits `input`: the part before the first marker is `folder/first`.
    public init(_ input: [UInt8], folder: String, first: String) {
        firstPath = SourcePath.normalize(folder + "/" + first)
        var files: [String: [UInt8]] = [:]
        var path = firstPath
        var start = 0
        var lineStart = 0
        while lineStart < input.count {
            var lineEnd = lineStart
            while lineEnd < input.count, input[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            if input[lineStart..<lineEnd].starts(with: Self.marker) {
                files[path] = Array(input[start..<lineStart])
                let name = String(decoding: input[(lineStart + Self.marker.count)..<lineEnd], as: UTF8.self)
                path = SourcePath.normalize(folder + "/" + name)
                start = min(lineEnd + 1, input.count)
            }
            lineStart = lineEnd + 1
        }
        files[path] = Array(input[start...])
        bytes = files
    }

    /// A reader that serves these files.
    public var reader: InMemorySourceReader { InMemorySourceReader(bytes: bytes) }
}
