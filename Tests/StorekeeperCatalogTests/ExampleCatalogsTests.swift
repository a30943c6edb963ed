import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperTestSupport
import Testing

/// The three example catalogs in `Catalogs/`, read from disk.
@Suite struct ExampleCatalogsTests {
    /// The package root: three directories above this file
    /// (`Tests/StorekeeperCatalogTests/ExampleCatalogsTests.swift`).
    static let packageRoot = PackageRoot.path

    static let catalogs = packageRoot + "/Catalogs"

    func load(_ name: String) throws -> (CatalogLoadResult, Catalog) {
        let result = CatalogLoader(reader: FileSystemReader()).load("\(Self.catalogs)/\(name)/catalog.yaml")
        expectClean(result)
        return (result, try #require(result.catalog))
    }

    @Test func theFolderValidatesWithoutDiagnostics() throws {
        let report = try CatalogValidator(loader: CatalogLoader(reader: FileSystemReader())).validate([Self.catalogs])
        #expect(report.diagnostics.isEmpty, "\n\(describe(report.diagnostics))")
        // Three catalogs and the two inkwell fragments.
        #expect(report.filesChecked == 5)
        #expect(!report.fails(strict: true))
    }

    @Test(arguments: ["daily-planet", "inkwell", "rocket-racer"])
    func eachCatalogValidatesOnItsOwn(name: String) throws {
        let report = try CatalogValidator(loader: CatalogLoader(reader: FileSystemReader()))
            .validate(["\(Self.catalogs)/\(name)/catalog.yaml"])
        #expect(report.diagnostics.isEmpty, "\n\(describe(report.diagnostics))")
    }

    @Test func rocketRacer() throws {
        let (result, catalog) = try load("rocket-racer")
        #expect(result.files.count == 1)
        #expect(catalog.name.value == "rocket-racer")
        #expect(catalog.server == nil)
        #expect(catalog.products.count == 15)
        #expect(catalog.products.count { $0.type.value == .consumable } == 6)
        #expect(catalog.products.count { $0.type.value == .nonConsumable } == 5)
        #expect(catalog.products.count { $0.type.value == .autoRenewableSubscription } == 3)
        #expect(catalog.products.count { $0.type.value == .nonRenewingSubscription } == 1)
        #expect(catalog.balances.map(\.value) == ["coins", "boosts"])
        #expect(catalog.groups.map(\.id.value) == ["pro"])
        #expect(catalog.rules.map(\.name.value) == ["quiet-cancel", "track-pack-restored", "audit-coin-purchases"])
        // Built-in delivery everywhere: no server in this catalog.
        #expect(catalog.products.allSatisfy { $0.delivery.model.value == .builtIn })
        // The pay-as-you-go offer bills every month for three months at 2.99.
        let proPlus = try #require(catalog.product(id: "com.example.rocketracer.proplus.monthly"))
        let offer = try #require(proPlus.subscription?.introductoryOffer)
        #expect(offer.mode.value == .payAsYouGo && offer.periods?.value == 3 && offer.price?.value.cents == 299)
        // The season pass is kept in iCloud as a receipt copy.
        let pass = try #require(catalog.product(id: "com.example.rocketracer.seasonpass.spring"))
        #expect(pass.persistence.strategy.value == .icloud && pass.persistence.effectiveRecord == .receipt)
        #expect(pass.duration?.value == ISOPeriod(months: 3))
        // Subscriptions take persistence and restore from `defaults`.
        let monthly = try #require(catalog.product(id: "com.example.rocketracer.pro.monthly"))
        #expect(monthly.persistence.isInherited && monthly.restore.isInherited)
        #expect(monthly.restore.policy.value == .receiptRefresh)
    }

    @Test func inkwellIsSplitIntoFragments() throws {
        let (result, catalog) = try load("inkwell")
        let base = "\(Self.catalogs)/inkwell/"
        #expect(result.files == [base + "catalog.yaml", base + "fragments/features.yaml", base + "fragments/credits.yaml"])
        #expect(catalog.files == result.files)
        #expect(catalog.products.count == 12)
        #expect(catalog.products.filter { $0.location.file == base + "catalog.yaml" }.count == 4)
        #expect(catalog.products.filter { $0.location.file == base + "fragments/features.yaml" }.count == 5)
        #expect(catalog.products.filter { $0.location.file == base + "fragments/credits.yaml" }.count == 3)
        #expect(catalog.rules.map(\.name.value) == ["quiet-cancel", "feature-restore-verified", "credits-recorded"])
        #expect(catalog.server?.url.value == "https://api.inkwell.example.com")
        let credits = try #require(catalog.product(id: "com.example.inkwell.credits.1000"))
        #expect(credits.delivery.grants.first?.balance.value == "credits")
        #expect(credits.delivery.grants.first?.amount.value == 1000)
        #expect(credits.quantityLimit == 5)
        #expect(credits.price.value.cents == 1299)
        // Non-Latin text is kept as written.
        let pro = try #require(catalog.product(id: "com.example.inkwell.pro.yearly"))
        #expect(pro.localizations.map(\.locale.value) == ["en-US", "de", "ja", "es"])
        #expect(pro.localizations[2].title.value == "Inkwell Pro 年額")
    }

    @Test func dailyPlanetUsesDefaultsForServerDelivery() throws {
        let (result, catalog) = try load("daily-planet")
        #expect(result.files.count == 1)
        #expect(catalog.products.count == 12)
        #expect(catalog.app.minimumOS?.value == OSVersion(major: 16, minor: 0))
        #expect(catalog.server?.effectiveIdentity == .account)
        let monthly = try #require(catalog.product(id: "com.example.dailyplanet.digital.monthly"))
        #expect(monthly.delivery.isInherited && monthly.persistence.isInherited && monthly.restore.isInherited)
        #expect(monthly.delivery.unlocks.map(\.value) == ["premium-articles"])
        #expect(monthly.subscription?.introductoryOffer?.mode.value == .freeTrial)
        let allAccess = try #require(catalog.product(id: "com.example.dailyplanet.allaccess.yearly"))
        #expect(!allAccess.delivery.isInherited)
        #expect(allAccess.subscription?.introductoryOffer?.price?.value.cents == 999)
        let editions = catalog.products.filter { $0.delivery.content?.source.value == .appleHosted }
        #expect(editions.count == 5)
        #expect(editions.allSatisfy { $0.restore.effectiveSelection == .user && $0.isFamilyShareable })
        let gifts = try #require(catalog.product(id: "com.example.dailyplanet.gifts.10"))
        #expect(gifts.persistence.isInherited && gifts.persistence.strategy.value == .server)
        #expect(!gifts.restore.isInherited && gifts.restore.policy.value == RestorePolicy.none)
        #expect(catalog.rules.count == 3)
    }
}
