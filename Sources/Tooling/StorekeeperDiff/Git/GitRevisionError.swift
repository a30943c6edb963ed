/// Why a catalog could not be read from a git revision. Each is a reason the
/// command cannot run (exit status 2), not a problem in a catalog.
public enum GitRevisionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No `git` on `PATH`.
    case notInstalled
    /// The current directory is not in a git repository (git's own words follow).
    case notARepository(String)
    /// The revision names no commit.
    case unknownRevision(String)
    /// The revision is not one this command passes to git (empty, or starting with `-`).
    case invalidRevision(String)
    /// The path after the revision is absolute and outside the current directory.
    case absolutePath(String)
    /// Git could not be started or waited for.
    case system(String)

    /// A sentence for the user.
    public var description: String {
        switch self {
        case .notInstalled:
            "git is not installed or not on PATH; the old catalog is read from a revision with git, so install git or give the old catalog as a file or directory"
        case .notARepository(let reason):
            "cannot read a revision here: \(reason); run the command inside the repository, or give the old catalog as a file or directory"
        case .unknownRevision(let revision):
            "'\(revision)' is not a revision of this repository (a branch, tag or commit); in a shallow CI checkout, fetch it first (for example `git fetch origin main`)"
        case .invalidRevision(let revision):
            "'\(revision)' is not a revision this command accepts: name a branch, tag or commit, not an option"
        case .absolutePath(let path):
            "'\(path)' is outside the current directory; after the revision, give a path relative to the current directory, as you would for the new catalog"
        case .system(let reason):
            "cannot run git: \(reason)"
        }
    }
}
