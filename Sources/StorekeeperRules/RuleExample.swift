/// A catalog used as an example of a rule, with `↓` written just before each
/// value the rule should point at.
///
/// Examples give only their products; `catalog` adds a standard header that
/// declares what products commonly use (a server, features `pro` and
/// `extra`, balance `coins`, group `premium`), so that an example shows just
/// what the rule is about.
public struct RuleExample: Sendable {
    /// The products part, as written in the rule, markers included.
    public let products: String
    /// Extra top-level lines for the header (`defaults:`, `rules:`), markers allowed.
    public let header: String
    /// The header's `server` line, or nil for no server.
    public let server: String?
    /// Step names a plugin registers, known while checking the example.
    public let extraSteps: [String]
    /// Where the example is written, for test failures.
    public let file: String
    /// The line it starts on in that file.
    public let line: Int

    /// The standard header's `server` line.
    public static let standardServer = #"server: {url: "https://store.example.com"}"#

    /// An example from its products (and, optionally, extra header lines,
    /// another `server` line or none, and step names plugins register).
    public init(
        _ products: String, header: String = "", server: String? = RuleExample.standardServer,
        extraSteps: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) {
        self.products = products
        self.header = header
        self.server = server
        self.extraSteps = extraSteps
        self.file = String(describing: file)
        self.line = Int(line)
    }

    /// The standard header every example starts with (its `server` line aside).
    public static let standardHeader = """
        catalog: example
        app: {bundle-id: com.example.app}
        features: [pro, extra]
        balances: [coins]
        groups: {premium: {name: Premium}}

        """

    /// The whole catalog with markers: header, extra header lines, products.
    public var markedCatalog: String {
        var text = Self.standardHeader
        if let server { text += server + "\n" }
        if !header.isEmpty { text += header.hasSuffix("\n") ? header : header + "\n" }
        text += "products:\n" + products
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    /// The catalog without markers, and the 1-based line and column of each marker.
    public var catalog: (text: String, markers: [(line: Int, column: Int)]) {
        var text = String.UnicodeScalarView()
        var markers: [(line: Int, column: Int)] = []
        var line = 1, column = 1
        for scalar in markedCatalog.unicodeScalars {
            if scalar == "↓" {
                markers.append((line, column))
                continue
            }
            text.append(scalar)
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (String(text), markers)
    }
}
