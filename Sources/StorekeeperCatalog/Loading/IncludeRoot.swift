/// The folder a catalog's includes must stay in: the folder of the catalog
/// file, whether the catalog was named by its path or found in a folder
/// above it, so that `validate`, `compile`, `explain`, `simulate` and
/// `export` agree on every catalog.
///
/// A fragment is refused when its path text climbs out (`../`), or when its
/// real path does: a link to a file elsewhere, or a file in a linked folder
/// that leads elsewhere. Links that stay inside are followed. The check runs
/// before the file is read, on files that do not change while the tool runs
/// (a checkout in CI): a refused file is never opened.
struct IncludeRoot {
    /// The folder as the catalog's path names it (normalized, relative
    /// when the path is): what messages show.
    let folder: String
    /// The folder with its links resolved, or nil when it cannot be resolved
    /// (then nothing it holds can be read either).
    private let realFolder: String?
    private let reader: any SourceReader

    init(folder: String, reader: any SourceReader) {
        self.folder = folder
        self.reader = reader
        realFolder = try? reader.realPath(folder)
    }

    /// Why `path` (normalized) may not be included, or nil when it may:
    /// a clause that follows the include's text in a message. A path that
    /// does not resolve (no such file) is left to the read, which says so.
    func refusal(of path: String) -> String? {
        guard SourcePath.isInside(path, root: folder) else { return "leaves the folder of the catalog file (\(folder))" }
        guard let realFolder else { return "cannot be checked: the folder of the catalog file (\(folder)) cannot be resolved" }
        guard let real = try? reader.realPath(path) else { return nil }
        guard SourcePath.isInside(real, root: realFolder) else {
            return "leads out of the folder of the catalog file (\(folder)) through a symbolic link, to \(real)"
        }
        return nil
    }
}
