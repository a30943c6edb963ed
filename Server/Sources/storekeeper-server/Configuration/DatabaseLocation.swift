import Foundation

/// Where the ledger lives: `sqlite:PATH` (the default, `sqlite:storekeeper-server.sqlite`) or a
/// `postgres://` URL. Its description hides the URL's password.
enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    /// The default: a SQLite file in the current folder.
    static let defaultValue = DatabaseLocation.sqlite(path: "storekeeper-server.sqlite")

    /// Reads `sqlite:PATH`, `postgres://...` or `postgresql://...`.
    ///
    /// - Parameter origin: the flag, variable or file key it came from, for the error.
    init(parsing text: String, origin: String) throws(UsageError) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw UsageError("\(origin) 'sqlite:' names no file; write sqlite:PATH, e.g. sqlite:storekeeper-server.sqlite") }
            self = .sqlite(path: path)
        } else if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else {
            throw UsageError(
                "\(origin) '\(Self.redacting(text))' is neither sqlite:PATH nor a postgres:// URL; write sqlite:storekeeper-server.sqlite or postgres://USER:PASSWORD@HOST:5432/DATABASE")
        }
    }

    var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let url): Self.redacting(url)
        }
    }

    /// `text` with the password of a URL's user replaced by `***`
    /// (`postgres://user:***@host/db`); text without one unchanged. Found by position (from the
    /// user's `:` to the last `@`), not by a URL parser, so that a password with characters a parser
    /// refuses (`/`, `#`, `?`) is hidden too; a `@` in the database name hides a little more than needed.
    static func redacting(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let authority = text[schemeEnd.upperBound...]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }

    /// The password of a URL's user, as written (percent-encoded or not); nil when it has none.
    static func password(in text: String) -> String? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let authority = text[schemeEnd.upperBound...]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        let password = String(text[text.index(after: colon)..<at])
        return password.isEmpty ? nil : password
    }
}
