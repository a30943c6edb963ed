/// A reason the command could not run at all (exit status 2): an unreadable
/// path, a directory without catalogs.
package struct CommandFailure: Error {
    package var message: String

    /// A failure that says `message`.
    package init(message: String) { self.message = message }
}
