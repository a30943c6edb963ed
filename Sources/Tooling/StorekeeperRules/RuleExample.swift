import StorekeeperCore
import StorekeeperDiagnostics

/// A catalog used as an example of a rule, with `↓` written just before each
/// value the rule should point at.
///
/// Examples give only their products; `catalog` adds a standard header that
/// declares what products commonly use (an app, a server, features `pro` and
/// `extra`, balance `coins`, group `premium`), so that an example shows just
/// what the rule is about. An example about the app or the groups replaces
/// that line of the header.
public struct RuleExample: Sendable {
    /// The products part, as written in the rule, markers included.
    public let products: String
    /// Extra top-level lines for the header (`defaults:`, `rules:`), markers allowed.
    public let header: String
    /// The header's `app` line, markers allowed.
    public let app: String
    /// The header's `groups` line, markers allowed, or nil for no groups.
    public let groups: String?
    /// The header's `server` line, or nil for no server.
    public let server: String?
    /// Step names a plugin registers, known while checking the example.
    public let extraSteps: [String]
    /// Where the example is written, for test failures.
    public let file: String
    /// The line it starts on in that file.
    public let line: Int

    /// The standard header's `app` line: iOS only, no minimum OS.
    public static let standardApp = "app: {bundle-id: com.example.app}"
    /// The standard header's `groups` line.
    public static let standardGroups = "groups: {premium: {name: Premium}}"
    /// The standard header's `server` line.
    public static let standardServer = #"server: {url: "https://store.example.com"}"#

    /// An example from its products (and, optionally, extra header lines,
    /// another `app` line, another `groups` line or none, another `server`
    /// line or none, and step names plugins register).
    public init(
        _ products: String, header: String = "", app: String = RuleExample.standardApp,
        groups: String? = RuleExample.standardGroups, server: String? = RuleExample.standardServer,
        extraSteps: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) {
        self.products = products
        self.header = header
        self.app = app
        self.groups = groups
        self.server = server
        self.extraSteps = extraSteps
        self.file = String(describing: file)
        self.line = Int(line)
    }

    /// The lines of the standard header every example has, between its
    /// `app` line and its `groups` line.
    public static let standardHeader = """
        features: [pro, extra]
        balances: [coins]

        """

    /// The whole catalog with markers: header, extra header lines, products.
    public var markedCatalog: String {
        var text = "catalog: example\n" + app + "\n" + Self.standardHeader
        if let groups { text += groups + "\n" }
        if let server { text += server + "\n" }
        if !header.isEmpty { text += header.hasSuffix("\n") ? header : header + "\n" }
        text += "products:\n" + products
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    /// The catalog without markers, and the 1-based line and column of each marker.
    public var catalog: (text: String, markers: [(line: Int, column: Int)]) {
        MarkedText.split(markedCatalog)
    }
}
