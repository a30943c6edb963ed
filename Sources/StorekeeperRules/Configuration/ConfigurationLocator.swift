import StorekeeperCatalog

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
    public static func find(forCatalogAt path: String, reader: any SourceReader) -> String? {
        let start = SourcePath.directory(of: SourcePath.normalize(path))
        var folder = start.isEmpty ? "." : start
        // The absolute form says how many folders there are above (when the
        // working directory is known); relative paths without it stop at ".".
        var absolute: String? = folder.hasPrefix("/")
            ? folder : WorkingDirectory.current().map { WorkingDirectory.absolute(folder, from: $0) }
        while true {
            let candidate = SourcePath.normalize(folder + "/" + RuleConfiguration.fileName)
            if reader.kind(of: candidate) == .file { return candidate }
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
