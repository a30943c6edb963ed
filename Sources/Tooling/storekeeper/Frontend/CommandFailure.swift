/// A reason the command could not run at all (exit status 2): an unreadable
/// path, a directory without catalogs.
struct CommandFailure: Error {
    var message: String
}
