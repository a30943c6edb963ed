import StorekeeperCore
import StorekeeperDiagnostics

/// A pair of catalogs, old and new, that shows a diff check: with `↓` written
/// just before each place the check should report (in the new catalog, or in
/// the old one for what the new one no longer has).
///
/// Each side gives its products; a standard header (an app, a server,
/// features `pro` and `extra`, balances `coins` and `gems`, groups `premium`
/// and `basic`) comes before them unless the example gives its own, so that
/// an example shows just what changed.
public struct DiffExample: Sendable {
    /// The old catalog's products, as written in the check, markers included.
    public let old: String
    /// The new catalog's products, markers included.
    public let new: String
    /// The old catalog's header lines (after `catalog: example`), markers allowed.
    public let oldHeader: String
    /// The new catalog's header lines, markers allowed.
    public let newHeader: String
    /// Where the example is written, for test failures.
    public let file: String
    /// The line it starts on in that file.
    public let line: Int

    /// The header every example has unless it gives its own.
    public static let standardHeader = """
        app: {bundle-id: com.example.app}
        server: {url: "https://store.example.com"}
        features: [pro, extra]
        balances: [coins, gems]
        groups: {premium: {name: Premium}, basic: {name: Basic}}

        """

    /// An example from its old and new products, with the standard header on
    /// both sides unless `header` (both sides), `oldHeader` or `newHeader` replaces it.
    public init(
        old: String, new: String, header: String = DiffExample.standardHeader,
        oldHeader: String? = nil, newHeader: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        self.old = old
        self.new = new
        self.oldHeader = oldHeader ?? header
        self.newHeader = newHeader ?? header
        self.file = String(describing: file)
        self.line = Int(line)
    }

    /// The old catalog without markers, and the 1-based line and column of each marker.
    public var oldCatalog: (text: String, markers: [(line: Int, column: Int)]) {
        Self.unmarked(Self.catalog(header: oldHeader, products: old))
    }

    /// The new catalog without markers, and the 1-based line and column of each marker.
    public var newCatalog: (text: String, markers: [(line: Int, column: Int)]) {
        Self.unmarked(Self.catalog(header: newHeader, products: new))
    }

    /// One side as the documentation shows it: its header when it is not the
    /// standard one, then its products, markers removed.
    public func shown(old isOld: Bool) -> String {
        let header = isOld ? oldHeader : newHeader
        var text = header == Self.standardHeader ? "" : (header.hasSuffix("\n") ? header : header + "\n")
        text += "products:\n" + (isOld ? old : new)
        text = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "↓" }))
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    static func catalog(header: String, products: String) -> String {
        var text = "catalog: example\n" + header
        if !text.hasSuffix("\n") { text += "\n" }
        text += "products:\n" + products
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    static func unmarked(_ marked: String) -> (text: String, markers: [(line: Int, column: Int)]) {
        MarkedText.split(marked)
    }
}
