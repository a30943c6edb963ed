import Foundation
import Testing

/// The schema's patterns and ranges accept exactly what the decoder accepts:
/// for each place, values on both sides of every rule (lengths at the limit
/// and one past it, each character class, leading zeros, case), written into
/// an otherwise valid catalog and checked by the CLI and by jsonschema.
@Suite struct PatternAgreementTests {
    static let q = CatalogVariant.quoted

    static let variants: [CatalogVariant] = [
        CatalogVariant(
            field: "product id", template: CatalogVariant.base(replacing: "id: com.example.demo.gold", with: "id: VALUE"),
            values: ["a", "com.example.app.coins_100", "A-Z.09", String(repeating: "x", count: 100), String(repeating: "x", count: 101),
                     "", "com example", "com/example", "é", "a+b", "12345"].map(q) + ["12345", "1.5"]),
        CatalogVariant(
            field: "catalog name", template: CatalogVariant.base(replacing: "catalog: demo", with: "catalog: VALUE"),
            values: ["demo", "rocket-racer", "2048", "-", String(repeating: "a", count: 64), String(repeating: "a", count: 65),
                     "Demo", "demo_x", "", "démo", "demo.x"].map(q) + ["2048", "1.5"]),
        CatalogVariant(
            field: "bundle id", template: CatalogVariant.base(replacing: "bundle-id: com.example.demo", with: "bundle-id: VALUE"),
            values: ["com.example.app", "a.b", "A-1.b-2.c", "app", ".com.x", "com..x", "com.x.", "com.ex_ample", "com.é.x", ""].map(q)),
        CatalogVariant(
            field: "locale", template: CatalogVariant.base(replacing: "{en-US: {title", with: "{VALUE: {title"),
            values: ["en", "en-US", "pt-BR", "zh-Hans", "zh-Hans-CN", "es-419", "yue", "en_US", "EN", "e", "engl", "en-us",
                     "zh-hans", "en-USA", "en-Hans-Hant", "en-US-x", "en-", "-en", "en-1234"].map(q)),
        CatalogVariant(
            field: "minimum-os", template: CatalogVariant.base(replacing: "minimum-os: \"15.0\"", with: "minimum-os: VALUE"),
            values: ["15.0", "9.9", "99.99", "1.0", "01.00", "15.099", "000000000000000001.0", "0000000000000000001.0",
                     "0.5", "100.0", "15", "15.0.1", "15.", ".5", "15.100", "a.b", "15.0 ", ""].map(q)),
        CatalogVariant(
            field: "price (quoted)", template: CatalogVariant.base(replacing: "price: \"0.99\"", with: "price: VALUE"),
            values: ["0", "4", "0.99", "10.5", "1299.99", "007.5", "999999.99", "1000000", "1000000.0", "1000000.00", "1000000.01",
                     "1000001", "0.999", "-1", "+1", "1,299.99", ".5", "5.", "1e3", " 1", "", "0x10", "1.2.3"].map(q)),
        CatalogVariant(
            field: "price (unquoted)", template: CatalogVariant.base(replacing: "price: \"0.99\"", with: "price: VALUE"),
            values: ["0", "4", "0.99", "10.5", "1299.99", "1000000", "1000000.00", "1000001", "-1", "-0.5", "abc", "true", "~"]),
        CatalogVariant(
            field: "duration", template: CatalogVariant.base(replacing: "type: non-consumable", with: "type: non-renewing-subscription\n    duration: VALUE"),
            values: ["P3M", "P1Y6M", "P1Y2M3W4D", "P10000D", "P0001W", "P1M0D", "P0Y1M", "P0M", "PT12H", "P1DT1H", "P", "P1", "P1M1Y",
                     "P10001D", "p3m", "P3m", "P1.5M", "P-1M", "P1W1W", "3M", ""].map(q)),
        CatalogVariant(
            field: "free trial period",
            template: CatalogVariant.subscription(replacing: "    period: P1M\n", with: "    period: P1M\n    introductory-offer: {mode: free-trial, period: VALUE}\n"),
            values: ["P3D", "P1W", "P01W", "P1W0D", "P0Y0M1W", "P7D", "P2W", "P4W", "P1M", "P2M", "P3M", "P6M", "P1Y", "P2Y", "P0Y1M", "P12M", "P1M1D"].map(q)),
        CatalogVariant(
            field: "pay-up-front period",
            template: CatalogVariant.subscription(replacing: "    period: P1M\n", with: "    period: P1M\n    introductory-offer: {mode: pay-up-front, period: VALUE, price: \"1.99\"}\n"),
            values: ["P1M", "P2M", "P3M", "P6M", "P1Y", "P1W", "P3D", "P12M", "P01Y"].map(q)),
        CatalogVariant(
            field: "pay-as-you-go period (monthly subscription)",
            template: CatalogVariant.subscription(replacing: "    period: P1M\n", with: "    period: P1M\n    introductory-offer: {mode: pay-as-you-go, period: VALUE, price: \"1.99\", periods: 3}\n"),
            values: ["P1M", "P01M", "P1M0D", "P4W", "P30D", "P1Y", "P2M"].map(q)),
        CatalogVariant(
            field: "content size",
            template: CatalogVariant.base(replacing: "{model: built-in, unlocks: [gold]}", with: "{model: built-in, unlocks: [gold], content: {source: apple-hosted, size: VALUE}}"),
            values: ["45MB", "800 KB", "1.5GB", "120000B", "1.5 GiB", "5.MB", "1.123456MB", "0.5KB", "0MB", "0.0MB", "45mb", "45", "MB", "45 M B",
                     "1.1234567MB", "-5MB", "45MB ", " 45MB", "4 5MB", "45TB"].map(q)),
        CatalogVariant(
            field: "content path",
            template: CatalogVariant.base(replacing: "{model: built-in, unlocks: [gold]}", with: "{model: built-in, unlocks: [gold], content: {source: bundle, path: VALUE}}"),
            values: ["Vehicles/a.plist", "themes/collection-v1", "a", "./a", "a//b", "a/./b", "ab:c", "a b/c d.txt", "/a", "~/a", "C:/a", "c:a",
                     "http://x/a", "ab://c", "a\\b", "a\u{7}b", "", "é:x"].map(q)),
        CatalogVariant(
            field: "server url",
            template: CatalogVariant.base(replacing: "features: [gold]", with: "features: [gold]\nserver: {url: VALUE}"),
            values: ["https://store.example.com", "HTTPS://x.com", "https://x", "https://user@x.com/p", "https://a@b@c.com", "https://[::1]:8443/",
                     "https://x.com:8443/path?q#f", "http://localhost", "http://LOCALHOST:8080/x", "http://127.0.0.1/", "http://[::1]/", "http://[::1]",
                     "http://user@localhost/", "http://store.example.com", "ftp://x", "store.example.com", "https://", "https:///path",
                     "https://@", "https://a@", "https://a@@", "https://a@:80", "https://@a", "https://:443", "https://[]", "http://localhost.example.com", "http://127.0.0.1.nip.io",
                     "http://localhostx", "x https://a.com", "https://user@", "http://[::1", "http://[::1]junk", "https://exa mple.com",
                     "https://example.com:abc", "https://example.com:", "https://example.com:123456", "https://b\u{fc}cher.example/", "https://[fe80::1]:443",
                     "https://[g::1]/", "https://a.com/a b",
                     // Issue 15: one parse everywhere; no backslash, user name, control character or bad port.
                     "http://evil.com\\@localhost/", "https://store.example.com\\path", "javascript:alert(1)", "", "https://user@host",
                     "https://user:secret@store.example.com/", "http://localhost@evil.com", "http://localhost./", "http://127.0.0.2/",
                     "https://a.com/\u{7}", "https://a.com/\u{85}x", "https://x.com:0", "https://x.com:65535", "https://x.com:65536",
                     "https://x.com:08443", "https://ex%61mple.com", "https://x.com/%20a", "HTTP://LOCALHOST", "1http://x",
                     // A host a browser reads as another: IPv4 written another way, characters it drops or maps.
                     "https://0x7f.1/", "https://2130706433/", "https://127.1/", "https://x.0x1F", "https://1.2.3.4.5/", "https://01.2.3.4/",
                     "https://1.2.3.4:8443/x", "https://127.0.0.1", "https://example.0a", "https://a_b.example-1.com", "https://localhost.",
                     "https://x..com", "https://x.com./", "https://\u{FF25}XAMPLE.com/", "https://exa\u{AD}mple.com/",
                     "https://exa\u{200B}mple.com/", "https://exa\u{FEFF}mple.com", "https://example.com/\u{301}x",
                     "https://example.com\u{202E}/moc.live", "https://xn--bcher-kva.example/"].map(q)),
        CatalogVariant(
            field: "feature name", template: CatalogVariant.base(replacing: "features: [gold]", with: "features: [gold, VALUE]"),
            values: ["pro", "Pro-2", "a.b_c", "x", String(repeating: "a", count: 64), String(repeating: "a", count: 65), "9pro", "-x", "_x",
                     "", "pro tracks", "é", "a/b"].map(q)),
        CatalogVariant(
            field: "step name",
            template: CatalogVariant.base + "rules:\n  - name: r\n    when: {state: failed}\n    do: [VALUE]\n",
            values: ["finish", "audit-log", "present-error", "x.y_z", "9x", "-x", "", "a b"].map(q)),
        CatalogVariant(
            field: "rule product pattern",
            template: CatalogVariant.base + "rules:\n  - name: r\n    when: {product: VALUE}\n    do: [finish]\n",
            values: ["*", "com.example.demo.gold", "com.example.*", "*gold*", "**", "", String(repeating: "x", count: 100) + "*",
                     String(repeating: "x", count: 101), "com/x*", "com x*", "é*"].map(q)),
        CatalogVariant(
            field: "max-quantity",
            template: CatalogVariant.base(replacing: "type: non-consumable", with: "type: consumable\n    max-quantity: VALUE")
                .replacingOccurrences(of: "persistence: receipt", with: "persistence: app-state")
                .replacingOccurrences(of: "restore: receipt-refresh", with: "restore: none")
                .replacingOccurrences(of: ", unlocks: [gold]", with: ""),
            values: ["1", "10", "0", "11", "-1", "\"5\"", "five", "~", "[1]"]),
        CatalogVariant(
            field: "level", template: CatalogVariant.subscription(replacing: "    period: P1M\n", with: "    period: P1M\n    level: VALUE\n"),
            values: ["1", "100", "0", "101", "\"1\""]),
        CatalogVariant(
            field: "reference name", template: CatalogVariant.base(replacing: "reference-name: Gold", with: "reference-name: VALUE"),
            values: [String(repeating: "é", count: 64), String(repeating: "é", count: 65), "", "2048", "Gold: the shiny one"].map(q) + ["2048", "~", "[a]"]),
    ]

    @Test(arguments: variants)
    func theCLIAndTheSchemaAcceptTheSameValues(_ variant: CatalogVariant) throws {
        let verdicts = try variant.verdicts()
        let disagreements = verdicts.filter { $0.cliAccepts != $0.schemaAccepts }
        #expect(disagreements.isEmpty, "\(variant.field):\n\(disagreements.map(\.description).joined(separator: "\n"))")
        // Each place has values on both sides, so it tests a rule and not just a type.
        #expect(verdicts.contains(where: \.cliAccepts) && verdicts.contains { !$0.cliAccepts }, "\(verdicts)")
    }
}
