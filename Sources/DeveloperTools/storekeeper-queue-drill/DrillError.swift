import Foundation

/// Why the drill could not do what it was asked (not a usage error, not a
/// kill): a file it cannot write, a catalog it cannot load, a child it
/// cannot start. Exit status 1.
enum DrillError: Error, CustomStringConvertible {
    /// A system call failed on a path.
    case system(String, String, code: Int32)
    /// Anything else, said in full.
    case message(String)

    var description: String {
        switch self {
        case .system(let action, let path, let code):
            "cannot \(action) \(path): \(String(cString: strerror(code)))"
        case .message(let text):
            text
        }
    }
}
