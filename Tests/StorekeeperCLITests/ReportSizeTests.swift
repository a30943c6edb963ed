import Foundation
import Testing

/// What bounds a report: the policy rules list at most 10,000 diagnostics
/// per catalog, like the format's checks, and count the rest.
@Suite("Report size")
struct ReportSizeTests {
    /// `products` products, each with a title and a description too long in
    /// five locales: ten `display-length` warnings each.
    static func wordyCatalog(products: Int) -> String {
        let locales = ["en-US", "fr-FR", "de-DE", "es-ES", "it-IT"]
        var text = """
            catalog: shop
            app:
              bundle-id: com.example.shop
              minimum-os: "15.0"
            products:

            """
        for index in 0..<products {
            text += """
                  - id: com.example.shop.p\(index)
                    type: consumable
                    reference-name: Product \(index)
                    price: "0.99"
                    localizations:

                """
            for locale in locales {
                text += "      \(locale): {title: A title far too long to show in the store, description: A description much too long for the App Store to show whole}\n"
            }
            text += "    delivery: built-in\n    persistence: app-state\n    restore: none\n"
        }
        return text
    }

    @Test("10,010 policy-rule warnings: 10,000 are listed and one more counts the other 10, as a warning")
    func warningsAreCapped() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.wordyCatalog(products: 1_001))
        let result = try await workspace.run("validate", "shop.yaml")
        #expect(result.status == 0, "only warnings: \(result.stderr)")
        #expect(result.lastStdoutLine == "10001 warnings in 1 file")
        #expect(result.stdout.hasPrefix("""
            shop.yaml:1:1: warning: 10 more problems (10 warnings) were found by the policy rules and not listed (at most 10000 are listed for a catalog); fix those listed and run again [too-many-problems]

            """), "\(result.stdout.prefix(400))")

        let strict = try await workspace.run("validate", "--strict", "--format", "json", "shop.yaml")
        #expect(strict.status == 1, "a warning left out still fails --strict")
        let report = try #require(try JSONSerialization.jsonObject(with: strict.stdoutData) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["warnings"] as? Int == 10_001)
    }
}

extension ReportSizeTests {
    @Test("10,005 unused suppression comments: 10,000 are listed and one more counts the other 5")
    func unusedSuppressionsAreCapped() async throws {
        let workspace = try Workspace()
        // Each above a blank line, which no diagnostic starts on.
        let text = validCatalog() + String(repeating: "# storekeeper:disable-next-line display-length -- nothing below is long\n\n", count: 10_005)
        try workspace.write("shop.yaml", text)
        let result = try await workspace.run("validate", "--format", "json", "shop.yaml")
        #expect(result.status == 0, "only warnings: \(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 10_001)
        #expect(diagnostics.filter { $0["rule"] as? String == "unused-suppression" }.count == 10_000)
        #expect(diagnostics.first?["message"] as? String
            == "5 more problems (5 warnings) were found by the suppression comments and not listed (at most 10000 are listed for a file); fix those listed and run again")
    }
}

extension ReportSizeTests {
    /// A catalog whose file has 10,500 repeated keys, and one more problem
    /// in a product: the YAML layer lists 10,000 and counts 500, the catalog
    /// counts the price it had no room for.
    static let repeatedKeys = validCatalog().replacingOccurrences(
        of: "    type: consumable\n",
        with: String(repeating: "    reference-name: Again\n", count: 10_500) + "    type: consumable\n"
    ).replacingOccurrences(of: "price: \"0.99\"", with: "price: free")

    @Test("past 10,000 problems the count of those left out reaches every format", arguments: ["text", "json", "sarif", "github"])
    func countsReachEveryFormat(_ format: String) async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.repeatedKeys)
        let result = try await workspace.run("validate", "--format", format, "shop.yaml")
        #expect(result.status == 1, "\(result)")
        for count in [
            "500 more problems (500 errors) were found in this file and not listed; fix these and run again",
            "1 more problems (1 error) were found and not listed (at most 10000 are listed for a catalog); fix these and run again",
        ] {
            #expect(result.stdout.components(separatedBy: count).count == 2, "\(format): \(count)")
        }
    }
}
