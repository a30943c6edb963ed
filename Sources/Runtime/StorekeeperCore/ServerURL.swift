/// An app's server address, parsed once by one rule that the catalog
/// decoder, the compiled-policy reader and the transport to the server share.
///
/// The rule, stricter than a browser's so that every reader finds the same
/// host:
///
/// - `scheme://authority[/path][?query][#fragment]`; the scheme is a letter
///   then letters, digits, `+`, `-` or `.`, in any case.
/// - Printable ASCII only: no spaces, control characters, backslashes or
///   other characters anywhere (a browser reads `\` as `/`, so
///   `http://evil.com\@localhost/` would reach `evil.com`, and drops or
///   maps invisible and full-width characters, so `https://exa\u{AD}mple.com`
///   is `example.com` to it). Write anything else percent-encoded, and a
///   non-ASCII host in its `xn--` form.
/// - No user name or password (`@` in the authority): they would travel in
///   every request, and `user@host` is how a host is disguised.
/// - A host: a dotted-decimal IPv4 address (`127.0.0.1`), an IPv6 address in
///   brackets, or a name of labels of letters, digits, `-` and `_` separated
///   by single dots, whose last label is not a number (`0x7f.1` and
///   `2130706433` are IPv4 addresses to a browser, written another way);
///   then optionally `:` and a port, 1 to 65535 written without leading zeros.
/// - `https`, or `http` only when the host is the local machine: exactly
///   `localhost` (in any case; not `localhost.` or `localhost.example.com`),
///   `127.0.0.1` (only that address, not the rest of 127.0.0.0/8) or
///   `[::1]` (only that spelling).
///
/// ```swift
/// let url = try ServerURL(parsing: "https://store.example.com:8443/api")
/// // url.host == "store.example.com", url.port == 8443, url.path == "/api"
/// ```
public struct ServerURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as written.
    public let text: String
    /// The scheme, lower-cased: `https`, or `http` for the local machine.
    public let scheme: String
    /// The host as written, without brackets for an IPv6 address.
    public let host: String
    /// The port, when one is written.
    public let port: Int?
    /// Everything after the authority (path, query and fragment), possibly empty.
    public let path: String

    /// The hosts plain `http` may reach, lower-cased (`::1` without brackets).
    package static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "::1"]

    /// Parses `text` by the rule above.
    ///
    /// - Throws: A ``Problem`` that says what is wrong and what would be right.
    package init(parsing text: String) throws(Problem) {
        guard let separator = text.firstRange(of: "://"), Self.isScheme(text[..<separator.lowerBound]) else {
            throw .notAURL(text)
        }
        if let scalar = text.unicodeScalars.first(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) {
            throw scalar.properties.isWhitespace && scalar.properties.generalCategory != .control ? .space(text) : .controlCharacter(text)
        }
        if text.contains("\\") { throw .backslash(text) }
        if text.unicodeScalars.contains(where: { !$0.isASCII }) { throw .nonASCII(text) }
        let scheme = text[..<separator.lowerBound].lowercased()
        let rest = text[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") {
            throw authority[authority.index(after: at)...].isEmpty ? .noHost(text) : .userInfo(text)
        }
        guard let (host, port) = Self.hostAndPort(authority) else {
            let noHost = authority.isEmpty || authority.hasPrefix(":") || authority.hasPrefix("[]")
            throw noHost ? .noHost(text) : .invalidHostOrPort(text, authority: String(authority))
        }
        switch scheme {
        case "https": break
        case "http" where Self.loopbackHosts.contains(host.lowercased()): break
        case "http": throw .insecureHTTP(text)
        default: throw .unsupportedScheme(text, scheme: scheme)
        }
        self.text = text
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = String(rest[authority.endIndex...])
    }

    /// The URL as written.
    public var description: String { text }

    /// Whether the host is the local machine (`localhost`, `127.0.0.1`, `[::1]`).
    package var isLoopback: Bool { Self.loopbackHosts.contains(host.lowercased()) }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCIILetter else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." }
    }

    /// `host[:port]` or `[v6][:port]`, or nil when either part is malformed.
    private static func hostAndPort(_ authority: Substring) -> (String, Int?)? {
        let host: Substring
        let afterHost: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            afterHost = authority[authority.index(after: close)...]
            guard !host.isEmpty, host.unicodeScalars.allSatisfy({ $0.isASCIIHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            let colon = authority.firstIndex(of: ":") ?? authority.endIndex
            host = authority[..<colon]
            afterHost = authority[colon...]
            guard isIPv4(host) || isHostName(host) else { return nil }
        }
        if afterHost.isEmpty { return (String(host), nil) }
        let digits = afterHost.dropFirst()
        guard afterHost.first == ":", let first = digits.unicodeScalars.first, first != "0", digits.count <= 5,
              digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }), let port = Int(digits), port <= 65535
        else { return nil }
        return (String(host), port)
    }

    /// Four decimal numbers 0 to 255 without leading zeros, separated by dots.
    private static func isIPv4(_ host: Substring) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            guard let first = part.first, part.count <= 3, part.allSatisfy(\.isASCIIDigit), let value = Int(part), value <= 255 else { return false }
            return first != "0" || part.count == 1
        }
    }

    /// Labels of ASCII letters, digits, `-` and `_`, separated by single
    /// dots, the last not a number: a browser reads a host whose last label
    /// is digits, or `0x` and hexadecimal digits, as an IPv4 address.
    private static func isHostName(_ host: Substring) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard let last = labels.last,
              labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" || $0 == "_" } })
        else { return false }
        let hexadecimal = last.lowercased().hasPrefix("0x") && last.dropFirst(2).allSatisfy(\.isHexDigit)
        return !last.allSatisfy(\.isASCIIDigit) && !hexadecimal
    }

    /// Why a text is not a server URL; `description` says what would be right.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// No `scheme://`.
        case notAURL(String)
        /// A space (or other white space).
        case space(String)
        /// A control character.
        case controlCharacter(String)
        /// A backslash.
        case backslash(String)
        /// A user name or password before the host.
        case userInfo(String)
        /// Nothing where the host goes.
        case noHost(String)
        /// A character outside printable ASCII.
        case nonASCII(String)
        /// A host or port that is malformed.
        case invalidHostOrPort(String, authority: String)
        /// `http` to a host that is not the local machine.
        case insecureHTTP(String)
        /// A scheme other than `https` or `http`.
        case unsupportedScheme(String, scheme: String)

        /// What is wrong, and what would be right.
        public var description: String {
            switch self {
            case .notAURL(let text):
                "'\(text)' is not a URL; write it in full, like https://store.example.com"
            case .space(let text):
                "'\(text)' contains a space; a URL has none (write a space in a path as %20)"
            case .controlCharacter(let text):
                "'\(text.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined())' contains a control character; a URL has none"
            case .backslash(let text):
                "'\(text)' contains a backslash, which browsers read as '/' (so another host may be reached); write '/' between path segments, or %5C"
            case .userInfo(let text):
                "'\(text)' has a user name before '@'; a server URL has none (credentials would travel in every request, and 'name@host' disguises the host): write https://store.example.com"
            case .nonASCII(let text):
                "'\(text.unicodeScalars.map { $0.isASCII ? String($0) : $0.escaped(asASCII: true) }.joined())' contains a character outside ASCII, which another reader may drop or map to another (so another host may be reached); percent-encode it, and write a non-ASCII host in its xn-- form"
            case .noHost(let text):
                "'\(text)' names no host; write it like https://store.example.com or https://store.example.com:8443"
            case .invalidHostOrPort(let text, let authority):
                "'\(text)' has no valid host and port in '\(authority)' (a host is a name of letters, digits, '-' and '_' between dots whose last part is not a number, a dotted IPv4 address or an IPv6 address in brackets; a port is 1 to 65535); write it like https://store.example.com or https://store.example.com:8443"
            case .insecureHTTP:
                "the server URL uses http, which anyone on the network can read and change; use https (http is allowed only for localhost, 127.0.0.1 and [::1])"
            case .unsupportedScheme(_, let scheme):
                "the server URL uses '\(scheme)'; use https"
            }
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    fileprivate var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIHexDigit: Bool { ("0"..."9").contains(self) || ("a"..."f").contains(self) || ("A"..."F").contains(self) }
}
