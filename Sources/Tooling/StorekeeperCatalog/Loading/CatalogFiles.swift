/// The catalogs one validation run checks, each file once: a file reached
/// by two names (a link beside the file it points at, a hard link, a file
/// named twice) is told apart by its identity (``CatalogLoader/FileKey``),
/// not its name, so that its problems are not reported twice under two names.
struct CatalogFiles {
    let loader: CatalogLoader
    /// The catalogs, in the order first met.
    private(set) var paths: [String] = []
    /// Each file's position in `paths`.
    private var positions: [CatalogLoader.FileKey: Int] = [:]

    init(loader: CatalogLoader) {
        self.loader = loader
    }

    /// Adds `path` (normalized) unless its file is already in: then the
    /// file keeps its own name over a symbolic link's, the name its
    /// author edits.
    mutating func add(_ path: String) {
        let key = loader.fileKey(path)
        guard let position = positions[key] else {
            positions[key] = paths.count
            paths.append(path)
            return
        }
        if loader.reader.isSymbolicLink(paths[position]), !loader.reader.isSymbolicLink(path) {
            paths[position] = path
        }
    }
}
