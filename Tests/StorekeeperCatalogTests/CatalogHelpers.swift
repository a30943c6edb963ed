import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

// MARK: - Loading

/// Loads `path` from in-memory files.
func loadCatalog(_ files: [String: String], at path: String = "catalog.yaml") -> CatalogLoadResult {
    CatalogLoader(reader: InMemorySourceReader(files)).load(path)
}

/// Loads one catalog text (and optional extra files) from memory.
func loadCatalog(_ text: String, at path: String = "catalog.yaml", with extra: [String: String] = [:]) -> CatalogLoadResult {
    var files = extra
    files[path] = text
    return loadCatalog(files, at: path)
}

// MARK: - A minimal catalog with one product

/// A minimal valid catalog with one product, laid out on fixed lines so that
/// tests can predict where every value is. The default header is:
///
/// ```
///  1 catalog: test-shop
///  2 app:
///  3   bundle-id: com.example.shop
///  4 features: [pro, extra]
///  5 balances: [coins, gems]
///  6 groups:
///  7   premium:
///  8     name: Premium
///  9 products:
/// 10   - id: com.example.shop.item
/// 11     type: ...
/// ```
///
/// Header lines added with `addingHeader` go between line 8 and `products:`.
/// Every product field is one line, `    key: value`: keys are at column 5,
/// values at `valueColumn(key)`. Fields replaced with `with` keep their line;
/// new fields are appended after the last one.
struct CatalogFixture {
    enum Kind {
        case consumable, nonConsumable, autoRenewable, nonRenewing
    }

    static let baseHeader = [
        "catalog: test-shop",
        "app:",
        "  bundle-id: com.example.shop",
        "features: [pro, extra]",
        "balances: [coins, gems]",
        "groups:",
        "  premium:",
        "    name: Premium",
    ]

    var header: [String] = CatalogFixture.baseHeader
    var fields: [(key: String, value: String)]
    var trailer: [String] = []
    var path = "catalog.yaml"

    init(_ kind: Kind = .nonConsumable) {
        let common: [(key: String, value: String)] = [
            ("id", "com.example.shop.item"),
            ("reference-name", "Item"),
            ("price", "\"0.99\""),
            ("localizations", "{en-US: {title: Item, description: An item}}"),
        ]
        switch kind {
        case .nonConsumable:
            fields = [common[0], ("type", "non-consumable")] + common[1...] + [
                ("delivery", "built-in"), ("persistence", "receipt"), ("restore", "receipt-refresh"),
            ]
        case .consumable:
            fields = [common[0], ("type", "consumable")] + common[1...] + [
                ("delivery", "{model: built-in, grants: {coins: 10}}"), ("persistence", "app-state"), ("restore", "none"),
            ]
        case .autoRenewable:
            fields = [common[0], ("type", "auto-renewable-subscription")] + common[1...] + [
                ("group", "premium"), ("period", "P1M"),
                ("delivery", "{model: built-in, unlocks: [pro]}"), ("persistence", "receipt"), ("restore", "receipt-refresh"),
            ]
        case .nonRenewing:
            fields = [common[0], ("type", "non-renewing-subscription")] + common[1...] + [
                ("duration", "P3M"),
                ("delivery", "{model: built-in, unlocks: [pro]}"), ("persistence", "receipt"), ("restore", "receipt-refresh"),
            ]
        }
    }

    /// The fixture with `key` set to `value` (replaced in place, or appended).
    func with(_ key: String, _ value: String) -> CatalogFixture {
        var copy = self
        if let index = copy.fields.firstIndex(where: { $0.key == key }) {
            copy.fields[index].value = value
        } else {
            copy.fields.append((key, value))
        }
        return copy
    }

    /// The fixture without some product fields.
    func without(_ keys: String...) -> CatalogFixture {
        var copy = self
        copy.fields.removeAll { keys.contains($0.key) }
        return copy
    }

    /// The fixture with lines added to the header (just before `products:`).
    func addingHeader(_ lines: String...) -> CatalogFixture {
        var copy = self
        copy.header += lines
        return copy
    }

    /// The fixture with lines after the product (more products, `rules:`).
    func addingTrailer(_ lines: String...) -> CatalogFixture {
        var copy = self
        copy.trailer += lines
        return copy
    }

    /// The catalog text.
    var text: String {
        var lines = header + ["products:"]
        for (index, field) in fields.enumerated() {
            lines.append((index == 0 ? "  - " : "    ") + "\(field.key): \(field.value)")
        }
        return (lines + trailer).joined(separator: "\n") + "\n"
    }

    /// The line of `products:`.
    var productsLine: Int { header.count + 1 }
    /// The line where the product mapping starts (its first key, at column 5).
    var productLine: Int { header.count + 2 }
    /// The product mapping's column.
    let productColumn = 5
    /// The line of a product field.
    func line(_ key: String) -> Int {
        guard let index = fields.firstIndex(where: { $0.key == key }) else {
            Issue.record("the fixture has no field '\(key)'")
            return 0
        }
        return productLine + index
    }
    /// The column of a product field's key.
    let keyColumn = 5
    /// The column of a product field's value.
    func valueColumn(_ key: String) -> Int { keyColumn + key.count + 2 }
    /// The first line after the product.
    var trailerLine: Int { productLine + fields.count }

    /// Loads the fixture (with optional extra in-memory files).
    func load(_ extra: [String: String] = [:]) -> CatalogLoadResult {
        loadCatalog(text, at: path, with: extra)
    }
}

// MARK: - Finding places in text

/// The 1-based line and column where `needle` first occurs in `text`
/// (columns count Unicode scalars, as diagnostics do). `occurrence` picks a
/// later match.
func position(of needle: String, in text: String, occurrence: Int = 1, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> (line: Int, column: Int) {
    var seen = 0
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        var searchStart = line.startIndex
        while let range = line[searchStart...].range(of: needle) {
            seen += 1
            if seen == occurrence {
                let column = line.unicodeScalars[line.unicodeScalars.startIndex..<range.lowerBound].count + 1
                return (index + 1, column)
            }
            searchStart = line.index(after: range.lowerBound)
        }
    }
    Issue.record("'\(needle)' (occurrence \(occurrence)) is not in the text", sourceLocation: sourceLocation)
    return (0, 0)
}

extension Substring {
    /// The first range of `needle` (no Foundation needed).
    func range(of needle: String) -> Range<Index>? {
        guard !needle.isEmpty else { return nil }
        var start = startIndex
        while start < endIndex {
            if self[start...].hasPrefix(needle) {
                return start..<index(start, offsetBy: needle.count)
            }
            start = index(after: start)
        }
        return nil
    }
}

extension String {
    /// Whether the text contains `needle` (no Foundation needed).
    func mentions(_ needle: String) -> Bool { self[...].range(of: needle) != nil }
}

// MARK: - Asserting diagnostics

/// A diagnostic reduced to what identifies it: rule, file, line and column.
struct DiagnosticSite: Hashable, Comparable, CustomStringConvertible {
    var rule: String
    var file: String
    var line: Int
    var column: Int

    var description: String { "\(rule)@\(file):\(line):\(column)" }

    static func < (lhs: DiagnosticSite, rhs: DiagnosticSite) -> Bool {
        (lhs.file, lhs.line, lhs.column, lhs.rule) < (rhs.file, rhs.line, rhs.column, rhs.rule)
    }
}

/// Every diagnostic, one per line, for failure messages.
func describe(_ diagnostics: [Diagnostic]) -> String {
    if diagnostics.isEmpty { return "(no diagnostics)" }
    return diagnostics.map { diagnostic in
        var text = "\(diagnostic.location): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.rule)]"
        for note in diagnostic.notes { text += "\n    note \(note.location): \(note.message)" }
        return text
    }.joined(separator: "\n")
}

/// Expects exactly these (rule, line, column) diagnostics, all in `file`, in any order.
func expectExactly(
    _ diagnostics: [Diagnostic], _ expected: [(String, Int, Int)], file: String = "catalog.yaml",
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    expectExactly(diagnostics, sites: expected.map { ($0.0, file, $0.1, $0.2) }, sourceLocation: sourceLocation)
}

/// Expects exactly these (rule, file, line, column) diagnostics, in any order.
func expectExactly(
    _ diagnostics: [Diagnostic], sites expected: [(String, String, Int, Int)],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let actual = diagnostics.map { DiagnosticSite(rule: $0.rule, file: $0.location.file, line: $0.location.line, column: $0.location.column) }.sorted()
    let wanted = expected.map { DiagnosticSite(rule: $0.0, file: $0.1, line: $0.2, column: $0.3) }.sorted()
    #expect(actual == wanted, "\n\(describe(diagnostics))", sourceLocation: sourceLocation)
}

/// Expects no diagnostics at all.
func expectClean(_ result: CatalogLoadResult, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let count = result.diagnostics.count
    #expect(count == 0, "\n\(describe(result.diagnostics))", sourceLocation: sourceLocation)
}

/// Finds the diagnostic with `rule` at `line`:`column` of `file` and checks
/// its severity and that its message mentions every word given.
@discardableResult
func expectDiagnostic(
    _ diagnostics: [Diagnostic], _ rule: String, at line: Int, _ column: Int, file: String = "catalog.yaml",
    severity: Severity = .error, mentions words: [String] = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> Diagnostic {
    let found = diagnostics.first {
        $0.rule == rule && $0.location.file == file && $0.location.line == line && $0.location.column == column
    }
    let diagnostic = try #require(found, "no \(rule) at \(file):\(line):\(column) in\n\(describe(diagnostics))", sourceLocation: sourceLocation)
    #expect(diagnostic.severity == severity, "\(diagnostic.message)", sourceLocation: sourceLocation)
    for word in words {
        #expect(diagnostic.message.mentions(word), "the message '\(diagnostic.message)' should mention '\(word)'", sourceLocation: sourceLocation)
    }
    #expect(!diagnostic.message.isEmpty, sourceLocation: sourceLocation)
    return diagnostic
}

/// Expects a diagnostic to carry exactly one note, at `line`:`column` of `file`,
/// whose message mentions every word given.
func expectNote(
    _ diagnostic: Diagnostic, at line: Int, _ column: Int, file: String = "catalog.yaml", mentions words: [String] = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    #expect(diagnostic.notes.count == 1, "notes: \(diagnostic.notes)", sourceLocation: sourceLocation)
    guard let note = diagnostic.notes.first else { return }
    #expect(note.location.file == file, sourceLocation: sourceLocation)
    #expect(note.location.line == line, sourceLocation: sourceLocation)
    #expect(note.location.column == column, sourceLocation: sourceLocation)
    for word in words {
        #expect(note.message.mentions(word), "the note '\(note.message)' should mention '\(word)'", sourceLocation: sourceLocation)
    }
}

/// Expects exactly one diagnostic: `rule` at a product field's value, with
/// the severity and message words given. Returns it for further checks.
@discardableResult
func expectOnlyAtValue(
    _ fixture: CatalogFixture, _ key: String, _ rule: String, severity: Severity = .error, mentions words: [String] = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> Diagnostic {
    let result = fixture.load()
    expectExactly(result.diagnostics, [(rule, fixture.line(key), fixture.valueColumn(key))], sourceLocation: sourceLocation)
    return try expectDiagnostic(
        result.diagnostics, rule, at: fixture.line(key), fixture.valueColumn(key), severity: severity, mentions: words,
        sourceLocation: sourceLocation)
}

/// The only product of a load that is expected to be clean.
func onlyProduct(_ result: CatalogLoadResult, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Product {
    expectClean(result, sourceLocation: sourceLocation)
    let catalog = try #require(result.catalog, sourceLocation: sourceLocation)
    try #require(catalog.products.count == 1, "products: \(catalog.products.map(\.id.value))", sourceLocation: sourceLocation)
    return catalog.products[0]
}

// MARK: - Self-checks of the helpers

@Suite struct CatalogHelperTests {
    @Test func theFixtureIsAValidCatalogForEveryProductType() throws {
        for kind in [CatalogFixture.Kind.consumable, .nonConsumable, .autoRenewable, .nonRenewing] {
            let fixture = CatalogFixture(kind)
            let product = try onlyProduct(fixture.load())
            #expect(product.id.value == "com.example.shop.item")
            #expect(product.location.line == fixture.productLine && product.location.column == fixture.productColumn)
            #expect(product.price.location.line == fixture.line("price"))
            #expect(product.price.location.column == fixture.valueColumn("price"))
        }
    }

    @Test func fixtureEditsKeepLinesPredictable() {
        let fixture = CatalogFixture().with("price", "1").with("max-quantity", "2").without("restore")
        let lines = fixture.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[fixture.line("price") - 1] == "    price: 1")
        #expect(lines[fixture.line("max-quantity") - 1] == "    max-quantity: 2")
        #expect(!fixture.text.mentions("restore"))
        #expect(position(of: "max-quantity", in: fixture.text) == (fixture.line("max-quantity"), 5))
    }

    @Test func positionCountsUnicodeScalars() {
        #expect(position(of: "x", in: "ab\nÜber x") == (2, 6))
        #expect(position(of: "a", in: "a a a", occurrence: 3) == (1, 5))
    }
}
