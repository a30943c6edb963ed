import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

/// The complete example of the format contract, copied verbatim from
/// /work/shared/spec/catalog-format.md ("A complete example").
///
/// Note: as written, line 63 of the example,
/// `en-US: {title: Pro Monthly, description: Every pro track, every month}`,
/// is a flow mapping in which the comma ends the description, so
/// `every month` is read as a third key. The library rightly reports it;
/// `specExampleFixed` quotes that description, as the other examples in
/// `Catalogs/` do, and is the text the model tests decode.
let specExampleVerbatim = #"""
# yaml-language-server: $schema=../schema/catalog.schema.json
catalog: rocket-racer
format: 1
app:
  bundle-id: com.example.rocketracer
  platforms: [ios, macos]
  minimum-os: "15.0"
server:
  url: https://store.example.com
  identity: account
features: [rocket-car, pro-tracks]
balances: [coins]
groups:
  pro:
    name: Rocket Racer Pro
include: [seasonal.yaml]
defaults:
  restore: receipt-refresh
products:
  - id: com.example.rocketracer.rocketcar
    type: non-consumable
    reference-name: Rocket Car
    price: "2.99"
    family-shareable: true
    localizations:
      en-US: {title: Rocket Car, description: Fly over the traffic}
    delivery:
      model: built-in
      unlocks: [rocket-car]
      content: {source: bundle, path: Vehicles/rocketCar.plist}
    persistence: receipt
  - id: com.example.rocketracer.coins.100
    type: consumable
    reference-name: 100 Coins
    price: "0.99"
    max-quantity: 10
    localizations:
      en-US: {title: 100 Coins, description: A bag of coins}
    delivery: {model: built-in, grants: {coins: 100}}
    persistence: app-state
    restore: none
  - id: com.example.rocketracer.trackpack
    type: non-consumable
    reference-name: Track Pack
    price: "4.99"
    localizations:
      en-US: {title: Track Pack, description: Twelve new tracks}
    delivery:
      model: server
      unlocks: [pro-tracks]
      content: {source: apple-hosted, size: 45MB, storage: documents}
    persistence: receipt
    restore: {policy: restore-transactions, selection: user}
  - id: com.example.rocketracer.pro.monthly
    type: auto-renewable-subscription
    reference-name: Pro Monthly
    price: "3.99"
    group: pro
    level: 1
    period: P1M
    introductory-offer: {mode: free-trial, period: P1W}
    localizations:
      en-US: {title: Pro Monthly, description: Every pro track, every month}
    delivery: {model: server, unlocks: [pro-tracks]}
    persistence: receipt
  - id: com.example.rocketracer.seasonpass
    type: non-renewing-subscription
    reference-name: Season Pass
    price: "9.99"
    duration: P3M
    localizations:
      en-US: {title: Season Pass, description: Three months of events}
    delivery: {model: server, unlocks: [pro-tracks]}
    persistence: server
    restore: server
rules:
  - name: quiet-cancel
    when: {state: failed, error: payment-cancelled}
    do: [finish]
"""#

/// The spec's example with the one description that contains a comma quoted.
let specExample = specExampleVerbatim.replacingFirst(
    "description: Every pro track, every month}", with: "description: \"Every pro track, every month\"}")

extension String {
    /// The text with the first occurrence of `target` replaced (no Foundation needed).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = self[...].range(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }
}

/// The fragment the example includes (`include: [seasonal.yaml]`): a product
/// that inherits `restore` from the catalog's defaults, a feature, a group
/// and a rule of its own.
let seasonalFragment = #"""
# Seasonal content for Rocket Racer.
features: [winter-tracks]
groups:
  seasonal:
    name: Seasonal Pass
products:
  - id: com.example.rocketracer.winterpack
    type: non-consumable
    reference-name: Winter Pack
    price: 1.49
    localizations:
      en-US: {title: Winter Pack, description: Snowy tracks}
      pt-BR: {title: Pacote de Inverno, description: Pistas com neve}
    delivery: {model: built-in, unlocks: [winter-tracks, pro-tracks]}
    persistence: receipt
  - id: com.example.rocketracer.seasonal.yearly
    type: auto-renewable-subscription
    reference-name: Seasonal Yearly
    price: "19.99"
    group: seasonal
    period: P1Y
    introductory-offer: {mode: pay-up-front, period: P3M, price: "4.99"}
    localizations:
      en-US: {title: Seasonal Yearly, description: Every season for a year}
    delivery: {model: server, unlocks: [winter-tracks]}
    persistence: server
    restore: server
rules:
  - name: winter-notify
    when: {state: purchased, product: "com.example.rocketracer.winter*"}
    add: {after: persist, steps: [notify]}
"""#

@Suite struct CompleteExampleTests {
    static let files = [
        "rocket-racer/catalog.yaml": specExample,
        "rocket-racer/seasonal.yaml": seasonalFragment,
    ]

    func loadExample() throws -> (CatalogLoadResult, Catalog) {
        let result = loadCatalog(Self.files, at: "rocket-racer/catalog.yaml")
        expectClean(result)
        let catalog = try #require(result.catalog)
        return (result, catalog)
    }

    func product(_ catalog: Catalog, _ suffix: String) throws -> Product {
        try #require(catalog.product(id: "com.example.rocketracer." + suffix), "no product \(suffix)")
    }

    @Test func decodesWithoutDiagnosticsAndReadsBothFiles() throws {
        let (result, catalog) = try loadExample()
        #expect(result.files == ["rocket-racer/catalog.yaml", "rocket-racer/seasonal.yaml"])
        #expect(catalog.files == result.files)
        #expect(catalog.products.map(\.id.value) == [
            "com.example.rocketracer.rocketcar", "com.example.rocketracer.coins.100",
            "com.example.rocketracer.trackpack", "com.example.rocketracer.pro.monthly",
            "com.example.rocketracer.seasonpass", "com.example.rocketracer.winterpack",
            "com.example.rocketracer.seasonal.yearly",
        ])
        let hasErrors = result.hasErrors
        #expect(!hasErrors)
    }

    @Test func theVerbatimSpecExampleHasOneProblemAtTheUnquotedComma() throws {
        // The spec's text itself: `description: Every pro track, every month`
        // inside `{...}` makes `every month` a key. Everything else decodes.
        #expect(specExample != specExampleVerbatim)
        let result = loadCatalog(
            ["rocket-racer/catalog.yaml": specExampleVerbatim, "rocket-racer/seasonal.yaml": seasonalFragment],
            at: "rocket-racer/catalog.yaml")
        expectExactly(result.diagnostics, [("unknown-key", 63, 65)], file: "rocket-racer/catalog.yaml")
        try expectDiagnostic(
            result.diagnostics, "unknown-key", at: 63, 65, file: "rocket-racer/catalog.yaml",
            mentions: ["every month", "title, description"])
        // Only the product with the broken localization is left out.
        #expect(result.catalog?.products.count == 6)
        #expect(result.catalog?.product(id: "com.example.rocketracer.pro.monthly") == nil)
    }

    @Test func topLevelValues() throws {
        let (_, catalog) = try loadExample()
        #expect(catalog.name.value == "rocket-racer")
        #expect(catalog.name.location == SourceLocation(file: "rocket-racer/catalog.yaml", line: 2, column: 10))
        #expect(catalog.format == 1)
        #expect(catalog.app.bundleID.value == "com.example.rocketracer")
        #expect(catalog.app.platforms.map(\.value) == [.ios, .macos])
        #expect(catalog.app.minimumOS?.value == OSVersion(major: 15, minor: 0))
        #expect(catalog.app.location.line == 5 && catalog.app.location.column == 3)
        let server = try #require(catalog.server)
        #expect(server.url.value == "https://store.example.com")
        #expect(server.identity?.value == .account)
        #expect(server.effectiveIdentity == .account)
        #expect(catalog.features.map(\.value) == ["rocket-car", "pro-tracks", "winter-tracks"])
        #expect(catalog.features[2].location.file == "rocket-racer/seasonal.yaml")
        #expect(catalog.balances.map(\.value) == ["coins"])
        #expect(catalog.groups.map(\.id.value) == ["pro", "seasonal"])
        #expect(catalog.groups[0].name.value == "Rocket Racer Pro")
        #expect(catalog.groups[0].localizations.isEmpty)
        #expect(catalog.groups[1].name.value == "Seasonal Pass")
    }

    @Test func rocketCarIsANonConsumableWithBundleContentAndAnInheritedRestore() throws {
        let (_, catalog) = try loadExample()
        let car = try product(catalog, "rocketcar")
        #expect(car.type.value == .nonConsumable)
        #expect(car.referenceName.value == "Rocket Car")
        #expect(car.price.value.cents == 299)
        #expect(car.price.value.description == "2.99")
        #expect(car.familyShareable?.value == true)
        #expect(car.isFamilyShareable)
        #expect(car.maxQuantity == nil)
        #expect(car.localizations.count == 1)
        #expect(car.localizations[0].locale.value == "en-US")
        #expect(car.localizations[0].title.value == "Rocket Car")
        #expect(car.localizations[0].description.value == "Fly over the traffic")
        #expect(car.delivery.model.value == .builtIn)
        #expect(car.delivery.unlocks.map(\.value) == ["rocket-car"])
        #expect(car.delivery.grants.isEmpty)
        #expect(!car.delivery.isInherited)
        let content = try #require(car.delivery.content)
        #expect(content.source.value == .bundle)
        #expect(content.path?.value == "Vehicles/rocketCar.plist")
        #expect(content.size == nil && content.storage == nil)
        #expect(car.persistence.strategy.value == .receipt)
        #expect(!car.persistence.isInherited)
        // restore comes from `defaults` (line 18: `  restore: receipt-refresh`).
        #expect(car.restore.policy.value == .receiptRefresh)
        #expect(car.restore.isInherited)
        #expect(car.restore.location == SourceLocation(file: "rocket-racer/catalog.yaml", line: 18, column: 12))
        #expect(car.restore.effectiveTrigger == .user)
        #expect(car.restore.effectiveSelection == .all)
        #expect(car.subscription == nil && car.duration == nil)
        #expect(car.location == SourceLocation(file: "rocket-racer/catalog.yaml", line: 20, column: 5))
        #expect(car.id.location == SourceLocation(file: "rocket-racer/catalog.yaml", line: 20, column: 9))
    }

    @Test func coinsAreAConsumableThatGrantsABalance() throws {
        let (_, catalog) = try loadExample()
        let coins = try product(catalog, "coins.100")
        #expect(coins.type.value == .consumable)
        #expect(coins.price.value.cents == 99)
        #expect(coins.maxQuantity?.value == 10)
        #expect(coins.quantityLimit == 10)
        #expect(coins.familyShareable == nil)
        #expect(!coins.isFamilyShareable)
        #expect(coins.delivery.model.value == .builtIn)
        #expect(coins.delivery.grants.count == 1)
        #expect(coins.delivery.grants.first?.balance.value == "coins")
        #expect(coins.delivery.grants.first?.amount.value == 100)
        #expect(coins.delivery.unlocks.isEmpty && coins.delivery.content == nil)
        #expect(coins.persistence.strategy.value == .appState)
        #expect(coins.restore.policy.value == RestorePolicy.none)
        #expect(!coins.restore.isInherited)
        #expect(coins.restore.location.line == 41)
    }

    @Test func trackPackHasAppleHostedContentAndALongFormRestore() throws {
        let (_, catalog) = try loadExample()
        let pack = try product(catalog, "trackpack")
        #expect(pack.price.value.cents == 499)
        #expect(pack.familyShareable == nil)
        #expect(pack.delivery.model.value == .server)
        #expect(pack.delivery.unlocks.map(\.value) == ["pro-tracks"])
        let content = try #require(pack.delivery.content)
        #expect(content.source.value == .appleHosted)
        #expect(content.size?.value == ByteSize(bytes: 45_000_000))
        #expect(content.storage?.value == .documents)
        #expect(content.path == nil)
        #expect(pack.restore.policy.value == .restoreTransactions)
        #expect(pack.restore.selection?.value == .user)
        #expect(pack.restore.effectiveSelection == .user)
        #expect(pack.restore.trigger == nil)
        #expect(pack.restore.effectiveTrigger == .user)
        #expect(!pack.restore.isInherited)
    }

    @Test func proMonthlyIsAnAutoRenewableSubscriptionWithAFreeTrial() throws {
        let (_, catalog) = try loadExample()
        let pro = try product(catalog, "pro.monthly")
        #expect(pro.type.value == .autoRenewableSubscription)
        #expect(pro.price.value.cents == 399)
        let subscription = try #require(pro.subscription)
        #expect(subscription.group.value == "pro")
        #expect(subscription.level?.value == 1)
        #expect(subscription.effectiveLevel == 1)
        #expect(subscription.period.value == .oneMonth)
        let offer = try #require(subscription.introductoryOffer)
        #expect(offer.mode.value == .freeTrial)
        #expect(offer.period.value == ISOPeriod(weeks: 1))
        #expect(offer.periods == nil && offer.price == nil)
        #expect(pro.restore.isInherited)
        #expect(pro.restore.policy.value == .receiptRefresh)
        // No family-sharing default: not written, so nil (false).
        #expect(pro.familyShareable == nil)
        #expect(pro.duration == nil)
    }

    @Test func seasonPassIsANonRenewingSubscriptionKeptOnTheServer() throws {
        let (_, catalog) = try loadExample()
        let pass = try product(catalog, "seasonpass")
        #expect(pass.type.value == .nonRenewingSubscription)
        #expect(pass.price.value.cents == 999)
        #expect(pass.duration?.value == ISOPeriod(months: 3))
        #expect(pass.duration?.location.line == 70)
        #expect(pass.subscription == nil)
        #expect(pass.persistence.strategy.value == .server)
        #expect(pass.restore.policy.value == .server)
        #expect(!pass.restore.isInherited)
    }

    @Test func fragmentProductsInheritTheCatalogDefaults() throws {
        let (_, catalog) = try loadExample()
        let winter = try product(catalog, "winterpack")
        #expect(winter.location.file == "rocket-racer/seasonal.yaml")
        #expect(winter.price.value.cents == 149)  // written unquoted: 1.49
        #expect(winter.localizations.map(\.locale.value) == ["en-US", "pt-BR"])
        #expect(winter.restore.isInherited)
        #expect(winter.restore.policy.value == .receiptRefresh)
        #expect(winter.restore.location.file == "rocket-racer/catalog.yaml")
        #expect(winter.delivery.unlocks.map(\.value) == ["winter-tracks", "pro-tracks"])
        let yearly = try product(catalog, "seasonal.yearly")
        let offer = try #require(yearly.subscription?.introductoryOffer)
        #expect(offer.mode.value == .payUpFront)
        #expect(offer.period.value == ISOPeriod(months: 3))
        #expect(offer.price?.value.cents == 499)
        #expect(yearly.subscription?.group.value == "seasonal")
        #expect(yearly.subscription?.level == nil)
        #expect(yearly.subscription?.effectiveLevel == 1)
    }

    @Test func rulesFromTheCatalogAndTheFragment() throws {
        let (_, catalog) = try loadExample()
        #expect(catalog.rules.map(\.name.value) == ["quiet-cancel", "winter-notify"])
        let quiet = catalog.rules[0]
        #expect(quiet.condition.state?.value == .failed)
        #expect(quiet.condition.error?.value == .paymentCancelled)
        #expect(quiet.condition.product == nil && quiet.condition.type == nil && quiet.condition.delivery == nil)
        guard case .replace(let steps) = quiet.action else {
            Issue.record("expected `do`, got \(quiet.action)")
            return
        }
        #expect(steps.map(\.value) == ["finish"])
        let winter = catalog.rules[1]
        #expect(winter.location.file == "rocket-racer/seasonal.yaml")
        #expect(winter.condition.product?.value == "com.example.rocketracer.winter*")
        guard case .insert(.after(let anchor), let inserted) = winter.action else {
            Issue.record("expected `add: {after: ...}`, got \(winter.action)")
            return
        }
        #expect(anchor.value == "persist")
        #expect(inserted.map(\.value) == ["notify"])
    }

    @Test func theExampleAloneIsMissingOnlyItsFragment() throws {
        // Without seasonal.yaml in memory, the only problem is the include.
        let result = loadCatalog(specExample, at: "catalog.yaml")
        expectExactly(result.diagnostics, [("include", 16, 11)])
        try expectDiagnostic(result.diagnostics, "include", at: 16, 11, mentions: ["seasonal.yaml"])
        #expect(result.catalog?.products.count == 5)
    }

    @Test func aFamilySharingDefaultAppliesOnlyToShareableTypes() throws {
        let text = """
            catalog: family
            app: {bundle-id: com.example.family}
            features: [pro]
            balances: [coins]
            groups: {premium: {name: Premium}}
            defaults:
              family-shareable: true
              persistence: receipt
              restore: receipt-refresh
              delivery: {model: built-in, unlocks: [pro]}
            products:
              - {id: a.consumable, type: consumable, reference-name: A, price: 1, localizations: {en: {title: Aa, description: A}}, delivery: {model: built-in, grants: {coins: 1}}, persistence: app-state, restore: none}
              - {id: a.nonconsumable, type: non-consumable, reference-name: B, price: 1, localizations: {en: {title: Bb, description: B}}}
              - {id: a.auto, type: auto-renewable-subscription, reference-name: C, price: 1, group: premium, period: P1M, localizations: {en: {title: Cc, description: C}}}
              - {id: a.nonrenewing, type: non-renewing-subscription, reference-name: D, price: 1, duration: P1M, localizations: {en: {title: Dd, description: D}}}
              - {id: a.optout, type: non-consumable, reference-name: E, price: 1, family-shareable: false, localizations: {en: {title: Ee, description: E}}}
            """
        let result = loadCatalog(text)
        expectClean(result)
        let catalog = try #require(result.catalog)
        #expect(catalog.products.count == 5)
        #expect(catalog.product(id: "a.consumable")?.familyShareable == nil)
        #expect(catalog.product(id: "a.consumable")?.isFamilyShareable == false)
        #expect(catalog.product(id: "a.nonconsumable")?.isFamilyShareable == true)
        #expect(catalog.product(id: "a.nonconsumable")?.familyShareable?.location.line == 7)
        #expect(catalog.product(id: "a.auto")?.isFamilyShareable == true)
        #expect(catalog.product(id: "a.nonrenewing")?.familyShareable == nil)
        #expect(catalog.product(id: "a.nonrenewing")?.isFamilyShareable == false)
        #expect(catalog.product(id: "a.optout")?.isFamilyShareable == false)
        #expect(catalog.product(id: "a.optout")?.familyShareable?.location.line == 16)
        // Every product but the consumable inherits delivery, persistence and restore.
        let inherited = try #require(catalog.product(id: "a.auto"))
        #expect(inherited.delivery.isInherited && inherited.persistence.isInherited && inherited.restore.isInherited)
        #expect(inherited.delivery.location.line == 10)
        #expect(inherited.delivery.unlocks.map(\.value) == ["pro"])
        let own = try #require(catalog.product(id: "a.consumable"))
        #expect(!own.delivery.isInherited && !own.persistence.isInherited && !own.restore.isInherited)
    }
}
