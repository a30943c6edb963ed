import StorekeeperTooling

/// A path typed on the command line that was not UTF-8: Swift replaced its
/// invalid bytes with U+FFFD, so opening it would look for another name and
/// say "no such file" about a file or folder that exists.
package enum InputPathName {
    /// Stops the run (exit status 2) when `path` came from an argument that is
    /// not valid UTF-8, naming its bytes escaped (see ``ArgumentBytes``);
    /// `side` prefixes the message (`OLD: `) where a command takes two sides.
    package static func refuseIfNotUTF8(_ path: String, side: String = "") throws(CommandFailure) {
        guard let typed = ArgumentBytes.repairedArgument(endingWith: path) else { return }
        throw CommandFailure(message: "\(side)the name given, \(ArgumentBytes.escaped(typed)), is not valid UTF-8, and storekeeper reads names as UTF-8, so it cannot open it; rename the file or folder in UTF-8 and run again")
    }
}
