/// The folder a catalog's includes must stay in: the folder of the catalog
/// file, whether the catalog was named by its path or found in a folder
/// above it, so that `validate`, `compile`, `explain`, `simulate` and
/// `export` agree on every catalog. The same rule keeps a `storekeeper.yml`
/// found by the search in the folder it was found in.
///
/// A file is refused when its path text climbs out (`../`), or when its
/// real path does: a link to a file elsewhere, or a file in a linked folder
/// that leads elsewhere, or a link to a hidden entry inside (`.git/config`,
/// which a folder search would never read either). Other links that stay
/// inside are followed. The check runs
/// before the file is read, on files that do not change while the tool runs
/// (a checkout in CI): a refused file is never opened.
public struct IncludeRoot {
    /// The folder as the catalog's path names it (normalized, relative
    /// when the path is): what messages show.
    public let folder: String
    /// What the folder is, for messages: "the folder of the catalog file".
    private let role: String
    /// The folder with its links resolved, or nil when it cannot be resolved
    /// (then nothing it holds can be read either).
    private let realFolder: String?
    private let reader: any SourceReader

    /// The root at `folder` (normalized), resolved through `reader`;
    /// `role` says in messages what the folder is.
    public init(folder: String, reader: any SourceReader, role: String = "the folder of the catalog file") {
        self.folder = folder
        self.role = role
        self.reader = reader
        realFolder = try? reader.realPath(folder)
    }

    /// Why `path` (normalized) may not be read, or nil when it may: a
    /// clause that follows the file's name in a message ("… leaves the
    /// folder of the catalog file (shop)"). A path with no file at all is
    /// left to the read, which says so; any other failure to resolve it (a
    /// dangling or magic link, a real path too long) refuses it, since the
    /// file might still open.
    public func refusal(of path: String) -> String? {
        guard SourcePath.isInside(path, root: folder) else { return "leaves \(role) (\(folder))" }
        guard let realFolder else { return "cannot be checked: \(role) (\(folder)) cannot be resolved" }
        let real: String
        do {
            real = try reader.realPath(path)
        } catch .notFound {
            return nil
        } catch {
            return "cannot be checked (its real path cannot be resolved: \(error.reason))"
        }
        guard SourcePath.isInside(real, root: realFolder) else {
            return "leads out of \(role) (\(folder)) through a symbolic link, to \(real)"
        }
        if let hidden = SourcePath.hiddenComponent(of: real, below: realFolder) {
            return "is or leads to a hidden entry (\(hidden)), which Storekeeper never reads (hidden entries hold things like .git/config and credentials)"
        }
        return nil
    }
}
