import Foundation
import StorekeeperCatalog
import StorekeeperCodegen
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

/// The generated Swift, compiled by the real compiler in Swift 6 mode with
/// warnings as errors: every shipped catalog, an edge-case catalog, and a
/// misspelt product that must not compile. (One compiler run per case.)
@Suite(.serialized) struct GeneratedSwiftCompilesTests {
    /// A program that prints, for every product of every catalog, what the
    /// generated properties say; the test compares it with the catalogs.
    static func report(namespaces: [String]) -> String {
        var text = ""
        for namespace in namespaces {
            text += """
                for product in \(namespace).Product.allCases {
                    let unlocks = product.unlocks.map(\\.rawValue).joined(separator: ",")
                    let grants = product.grants.map { "\\($0.key.rawValue)=\\($0.value)" }.sorted().joined(separator: ",")
                    let group = product.subscriptionGroup?.rawValue ?? "-"
                    let level = product.subscriptionLevel.map(String.init) ?? "-"
                    print("\\(product.rawValue)|\\(product.type.rawValue)|\\(unlocks)|\\(grants)|\\(group)|\\(level)")
                }
                for feature in \(namespace).Feature.allCases {
                    print("feature \\(feature.rawValue): " + feature.unlockedBy.map(\\.rawValue).joined(separator: ","))
                }
                for group in \(namespace).SubscriptionGroup.allCases {
                    print("group \\(group.rawValue): " + group.products.map(\\.rawValue).joined(separator: ","))
                }

                """
        }
        return text
    }

    /// What ``report(namespaces:)`` must print, worked out from the catalogs.
    static func expectedReport(_ catalogs: [Catalog]) -> String {
        var lines: [String] = []
        for catalog in catalogs {
            for product in catalog.products {
                let unlocks = product.delivery.unlocks.map(\.value).joined(separator: ",")
                let grants = product.delivery.grants.map { "\($0.balance.value)=\($0.amount.value)" }.sorted().joined(separator: ",")
                let group = product.subscription?.group.value ?? "-"
                let level = product.subscription.map { String($0.effectiveLevel) } ?? "-"
                lines.append("\(product.id.value)|\(product.type.value.rawValue)|\(unlocks)|\(grants)|\(group)|\(level)")
            }
            for feature in catalog.features {
                let products = catalog.products.filter { $0.delivery.unlocks.contains { $0.value == feature.value } }
                lines.append("feature \(feature.value): " + products.map(\.id.value).joined(separator: ","))
            }
            for group in catalog.groups {
                let products = catalog.products.enumerated()
                    .filter { $0.element.subscription?.group.value == group.id.value }
                    .sorted { ($0.element.subscription?.effectiveLevel ?? 0, $0.offset) < ($1.element.subscription?.effectiveLevel ?? 0, $1.offset) }
                lines.append("group \(group.id.value): " + products.map(\.element.id.value).joined(separator: ","))
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    @Test func everyShippedCatalogCompilesAndSaysWhatTheCatalogSays() throws {
        let paths = RepositoryPaths.shippedCatalogs
        #expect(paths.count >= 3)
        let catalogs = try paths.map(loadCatalog(atPath:))
        let sorted = catalogs.sorted { SwiftGenerator.namespace(of: $0) < SwiftGenerator.namespace(of: $1) }
        let source = try generatedSource(catalogs)
        let compiler = try SwiftCompiler()
        defer { compiler.remove() }
        let generated = try compiler.write("Catalogs.swift", source)
        let main = try compiler.write("main.swift", Self.report(namespaces: sorted.map(SwiftGenerator.namespace(of:))))
        let built = try compiler.swiftc([generated, main, "-o", "report"])
        try #require(built.status == 0, "swiftc failed:\n\(built.output)")
        let ran = try compiler.run(compiler.folder.appendingPathComponent("report").path, [])
        #expect(ran.status == 0)
        #expect(ran.output == Self.expectedReport(sorted))
    }

    /// Keywords, digits, a reference name in another script, empty features
    /// and balances, a group named `none`, type aliases, public access.
    static let edgeCatalog = catalogText(name: "2024-edge", features: ["default", "import"], groups: ["none"], products: [
        product("Default", id: "com.example.shop.default", unlocks: ["default"]),
        product("100 Coins", id: "com.example.shop.coins", type: "consumable"),
        product("コインの小袋", id: "com.example.shop.small"),
        product("Repeat", id: "com.example.shop.repeat", type: "auto-renewable-subscription", unlocks: ["import"], group: "none"),
        product("Self", id: "com.example.shop.self", type: "non-renewing-subscription"),
    ])

    @Test func edgeCasesCompileWithTypeAliasesAndPublicAccess() throws {
        let source = try generatedSource([loadCatalog(Self.edgeCatalog)], options: CodegenOptions(access: .public))
        #expect(source.contains("public enum Edge2024Catalog {"))
        let compiler = try SwiftCompiler()
        defer { compiler.remove() }
        let generated = try compiler.write("Edge.swift", source)
        let usage = try compiler.write("Usage.swift", """
            public func use() -> [String] {
                let products: [Product] = [.`default`, .coins100, .small, .`repeat`, .`self`]
                let feature: Feature = .`import`
                let balances: [Balance] = Balance.allCases
                let group: Edge2024Catalog.SubscriptionGroup? = Product.`repeat`.subscriptionGroup
                return products.map(\\.rawValue) + [feature.rawValue, "\\(balances.count)", group?.rawValue ?? "-",
                    "\\(Product.`default`.unlocks)", "\\(Product.`self`.type)", "\\(Balance(rawValue: "coins") == nil)"]
            }
            """)
        let checked = try compiler.swiftc(["-parse-as-library", "-typecheck", "-module-name", "Edge", generated, usage])
        #expect(checked.status == 0, "swiftc failed:\n\(checked.output)\n\(source)")
    }

    @Test func aMisspeltProductIsACompileErrorNamingIt() throws {
        let catalog = try loadCatalog(atPath: RepositoryPaths.root.appendingPathComponent("Catalogs/rocket-racer/catalog.yaml").path)
        let compiler = try SwiftCompiler()
        defer { compiler.remove() }
        let generated = try compiler.write("RocketRacer.swift", try generatedSource([catalog]))
        let correct = try compiler.write("Correct.swift", "func buy() -> String { Product.vehicleRocketCar.rawValue }\n")
        let typo = try compiler.write("Typo.swift", "func buy() -> String { Product.vehicleRocketCra.rawValue }\n")
        let good = try compiler.swiftc(["-parse-as-library", "-typecheck", generated, correct])
        #expect(good.status == 0, "\(good.output)")
        let bad = try compiler.swiftc(["-parse-as-library", "-typecheck", generated, typo])
        #expect(bad.status != 0)
        #expect(bad.output.contains("Typo.swift:1:32: error: type 'Product' (aka 'RocketRacerCatalog.Product') has no member 'vehicleRocketCra'"), "\(bad.output)")
    }
}
