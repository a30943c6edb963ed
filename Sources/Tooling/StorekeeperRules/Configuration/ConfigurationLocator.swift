public import StorekeeperCatalog
import StorekeeperCore

/// Finds the `storekeeper.yml` that applies to a catalog, the way Git and
/// ESLint find theirs: in the catalog's folder, then in each folder above,
/// stopping at the repository's root (the first folder with a `.git`) or at
/// `/`. The CLI's `--config PATH` bypasses the search.
public enum ConfigurationLocator {
    /// The path of the configuration for the catalog at `path`, or nil when
    /// there is none up to the repository's root.
    ///
    /// Paths stay in the form the catalog's path was given: relative paths
    /// climb with `..` (`../storekeeper.yml`), so diagnostics name the file
    /// as the user would. A `.git` file (a worktree or submodule) marks a
    /// root as a `.git` folder does.
    ///
    /// The first folder with anything named `storekeeper.yml` ends the
    /// search, even when that is not a readable file (a directory, a FIFO, a
    /// dangling link or a loop of links): the path is returned, so that the
    /// caller reports it rather than silently applying a parent folder's
    /// configuration. Nothing is opened here; check the path's kind before
    /// reading it, since reading a FIFO could wait forever.
    public static func find(forCatalogAt path: String, reader: any SourceReader) -> String? {
        let start = SourcePath.directory(of: SourcePath.normalize(path))
        var folder = start.isEmpty ? "." : start
        // The absolute form says how many folders there are above (when the
        // working directory is known); relative paths without it stop at ".".
        var absolute: String? = folder.hasPrefix("/")
            ? folder : WorkingDirectory.current().map { WorkingDirectory.absolute(folder, from: $0) }
        while true {
            let candidate = SourcePath.normalize(folder + "/" + RuleConfiguration.fileName)
            // Anything under the name is the configuration, readable or not:
            // skipping a broken one would apply a parent folder's instead.
            if reader.kind(of: candidate) != .missing || reader.isSymbolicLink(candidate) { return candidate }
            if reader.kind(of: SourcePath.normalize(folder + "/.git")) != .missing { return nil }
            if let absolute {
                if absolute == "/" { return nil }
            } else if folder == "." || folder == "/" || folder.hasPrefix("..") {
                // Without the working directory there is no telling how far `..` may climb.
                return nil
            }
            folder = SourcePath.normalize(folder + "/..")
            absolute = absolute.map { SourcePath.directory(of: $0) }
        }
    }
}
