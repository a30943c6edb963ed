import Foundation
import StorekeeperCatalog
import StorekeeperCodegen
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite struct SwiftGeneratorTests {
    /// One product of each type, two features, a balance and a group.
    static let everyType = catalogText(
        name: "rocket-racer", features: ["rocket-car", "ad-free"], balances: ["coins"], groups: ["pro"],
        products: [
            product("100 Coins", id: "com.example.shop.coins.100", type: "consumable", grants: ["coins": 100]),
            product("Rocket Car", id: "com.example.shop.rocketcar", unlocks: ["rocket-car"]),
            product("Pro Monthly", id: "com.example.shop.pro.monthly", type: "auto-renewable-subscription", unlocks: ["ad-free", "rocket-car"], group: "pro", level: 2),
            product("Season Pass", id: "com.example.shop.season", type: "non-renewing-subscription", unlocks: ["ad-free"]),
        ])

    @Test func productsAreCasesWhoseRawValueIsTheID() throws {
        let lines = trimmedLines(try generatedSource([loadCatalog(Self.everyType)]))
        #expect(lines.contains("internal enum RocketRacerCatalog {"))
        #expect(lines.contains("internal enum Product: String, CaseIterable, Sendable {"))
        #expect(lines.contains("case coins100 = \"com.example.shop.coins.100\""))
        #expect(lines.contains("case rocketCar = \"com.example.shop.rocketcar\""))
        #expect(lines.contains("case proMonthly = \"com.example.shop.pro.monthly\""))
        #expect(lines.contains("case seasonPass = \"com.example.shop.season\""))
    }

    @Test func everyProductTypeIsMapped() throws {
        let source = try generatedSource([loadCatalog(Self.everyType)])
        #expect(source.contains("""
                    case .coins100:
                        return .consumable
                    case .rocketCar:
                        return .nonConsumable
                    case .proMonthly:
                        return .autoRenewableSubscription
                    case .seasonPass:
                        return .nonRenewingSubscription
            """))
        let lines = trimmedLines(source)
        #expect(lines.contains("case nonConsumable = \"non-consumable\""))
        #expect(lines.contains("case autoRenewableSubscription = \"auto-renewable-subscription\""))
        #expect(lines.contains("case nonRenewingSubscription = \"non-renewing-subscription\""))
    }

    @Test func featuresBalancesAndGroups() throws {
        let source = try generatedSource([loadCatalog(Self.everyType)])
        let lines = trimmedLines(source)
        #expect(lines.contains("internal enum Feature: String, CaseIterable, Sendable {"))
        #expect(lines.contains("case rocketCar = \"rocket-car\""))
        #expect(lines.contains("case adFree = \"ad-free\""))
        #expect(lines.contains("internal enum Balance: String, CaseIterable, Sendable {"))
        #expect(lines.contains("case coins"))
        #expect(lines.contains("internal enum SubscriptionGroup: String, CaseIterable, Sendable {"))
        #expect(lines.contains("case pro"))
        // Unlocks keep the catalog's order; products sharing a value share a case.
        #expect(source.contains("""
                    case .proMonthly:
                        return [.adFree, .rocketCar]
                    case .seasonPass:
                        return [.adFree]
            """))
        #expect(source.contains("""
                    case .coins100:
                        return [.coins: 100]
                    case .rocketCar,
                         .proMonthly,
                         .seasonPass:
                        return [:]
            """))
        #expect(source.contains("""
                    case .proMonthly:
                        return .pro
            """))
        #expect(source.contains("""
                    case .proMonthly:
                        return 2
            """))
        #expect(source.contains("""
                    case .rocketCar:
                        return [.rocketCar, .proMonthly]
                    case .adFree:
                        return [.proMonthly, .seasonPass]
            """))
    }

    @Test func groupProductsAreListedHighestLevelFirst() throws {
        let text = catalogText(groups: ["pro"], products: [
            product("Pro", type: "auto-renewable-subscription", group: "pro", level: 2),
            product("Pro Plus", type: "auto-renewable-subscription", group: "pro", level: 1),
            product("Pro Lite", type: "auto-renewable-subscription", group: "pro", level: 2),
        ])
        let source = try generatedSource([loadCatalog(text)])
        #expect(source.contains("return [.proPlus, .pro, .proLite]"))
    }

    @Test func emptyDeclarationsStillGiveTheTypes() throws {
        let source = try generatedSource([loadCatalog(catalogText(products: [product("Gift")]))])
        let lines = trimmedLines(source)
        for type in ["Feature", "Balance", "SubscriptionGroup"] {
            #expect(lines.contains("internal enum \(type): RawRepresentable, CaseIterable, Hashable, Sendable {"))
        }
        #expect(lines.contains("internal init?(rawValue: String) { return nil }"))
        #expect(lines.contains("return nil"))  // subscriptionGroup
        #expect(source.contains("""
                    switch self {
                    case .gift:
                        return []
            """))
    }

    @Test func keywordsAreWrittenInBackticks() throws {
        let text = catalogText(features: ["default", "import"], products: [
            product("Default", unlocks: ["default"]),
            product("Repeat", unlocks: ["import"]),
        ])
        let source = try generatedSource([loadCatalog(text)])
        let lines = trimmedLines(source)
        #expect(lines.contains("case `default` = \"com.example.shop.default\""))
        #expect(lines.contains("case `repeat` = \"com.example.shop.repeat\""))
        #expect(lines.contains("case `default`"))
        #expect(lines.contains("return [.`default`]"))
        #expect(lines.contains("case .`repeat`:"))
    }

    @Test func aGroupNamedNoneIsNotReadAsOptionalNone() throws {
        let text = catalogText(groups: ["none"], products: [product("Pro", type: "auto-renewable-subscription", group: "none")])
        let source = try generatedSource([loadCatalog(text)])
        #expect(source.contains("return ShopCatalog.SubscriptionGroup.none"))
    }

    @Test func aReferenceNameWithoutLettersFallsBackToTheID() throws {
        let text = catalogText(products: [product("コインの小袋", id: "com.example.shop.coins.small")])
        let lines = trimmedLines(try generatedSource([loadCatalog(text)]))
        #expect(lines.contains("case coinsSmall = \"com.example.shop.coins.small\""))
        #expect(lines.contains("/// コインの小袋: a non-consumable, 0.99."))
    }

    @Test func collidingReferenceNamesAreAnErrorAtBoth() throws {
        let text = catalogText(products: [product("Pro Monthly", id: "a.one"), product("Pro - Monthly", id: "a.two")])
        let catalog = try loadCatalog(text)
        let generated = SwiftGenerator().generate([catalog])
        #expect(generated.source == nil)
        let diagnostic = try #require(generated.diagnostics.first)
        #expect(generated.diagnostics.count == 1)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.rule == "swift-name-collision")
        #expect(diagnostic.message.contains("'Pro Monthly' and 'Pro - Monthly' both become the Swift case `proMonthly` in ShopCatalog.Product"))
        #expect(diagnostic.message.contains("change one of the reference names"))
        #expect(diagnostic.location == catalog.products[1].referenceName.location)
        #expect(diagnostic.notes.map(\.location) == [catalog.products[0].referenceName.location])
    }

    @Test func collidingFeaturesBalancesAndGroupsAreErrors() throws {
        let text = catalogText(
            features: ["rocket-car", "rocket_car"], balances: ["gold.coins", "gold-coins"], groups: ["pro", "Pro"],
            products: [product("Car", unlocks: ["rocket-car", "rocket_car"])])
        let catalog = try loadCatalog(text)
        let generated = SwiftGenerator().generate([catalog])
        #expect(generated.source == nil)
        let messages = generated.diagnostics.map(\.message)
        #expect(generated.diagnostics.allSatisfy { $0.rule == "swift-name-collision" })
        #expect(messages.contains { $0.contains("the features 'rocket-car' and 'rocket_car' both become the Swift case `rocketCar` in ShopCatalog.Feature") && $0.contains("rename one of the features") })
        #expect(messages.contains { $0.contains("the balances 'gold.coins' and 'gold-coins' both become the Swift case `goldCoins` in ShopCatalog.Balance") })
        #expect(messages.contains { $0.contains("the groups 'pro' and 'Pro' both become the Swift case `pro` in ShopCatalog.SubscriptionGroup") })
        #expect(generated.diagnostics.first { $0.message.contains("features") }?.location == catalog.features[1].location)
    }

    @Test func aNameThatEveryEnumHasIsAnError() throws {
        let catalog = try loadCatalog(catalogText(products: [product("All Cases")]))
        let generated = SwiftGenerator().generate([catalog])
        #expect(generated.source == nil)
        #expect(generated.diagnostics.map(\.rule) == ["swift-reserved-name"])
        #expect(generated.diagnostics.first?.message.contains("`allCases`") == true)
        #expect(generated.diagnostics.first?.location == catalog.products[0].referenceName.location)
    }

    @Test func catalogsThatMakeTheSameNamespaceAreAnError() throws {
        let first = try loadCatalog(catalogText(name: "rocket-racer", products: [product("Car")]), path: "a.yaml")
        let second = try loadCatalog(catalogText(name: "rocket--racer", products: [product("Car")]), path: "b.yaml")
        let generated = SwiftGenerator().generate([first, second])
        #expect(generated.source == nil)
        #expect(generated.diagnostics.count == 1)
        #expect(generated.diagnostics.first?.message.contains("the catalogs 'rocket-racer' and 'rocket--racer' both become the Swift enum `RocketRacerCatalog`") == true)
        #expect(generated.diagnostics.first?.notes.first?.location.file == "a.yaml")
    }

    @Test func outputIsDeterministicAndIndependentOfCatalogOrder() throws {
        let first = try loadCatalog(Self.everyType, path: "a.yaml")
        let second = try loadCatalog(catalogText(name: "inkwell", products: [product("Gift")]), path: "b.yaml")
        let once = try generatedSource([first, second])
        #expect(try generatedSource([first, second]) == once)
        #expect(try generatedSource([second, first]) == once)
        // Sorted by namespace: InkwellCatalog before RocketRacerCatalog.
        let inkwell = try #require(once.range(of: "enum InkwellCatalog {"))
        let rocket = try #require(once.range(of: "enum RocketRacerCatalog {"))
        #expect(inkwell.lowerBound < rocket.lowerBound)
        #expect(once.hasPrefix("// Generated by storekeeper-codegen from b.yaml, a.yaml. Do not edit.\n"))
    }

    @Test func typeAliasesOnlyForASingleCatalog() throws {
        let one = try loadCatalog(Self.everyType, path: "a.yaml")
        let other = try loadCatalog(catalogText(name: "inkwell", products: [product("Gift")]), path: "b.yaml")
        let alias = "internal typealias Product = RocketRacerCatalog.Product"
        #expect(try generatedSource([one]).contains(alias))
        #expect(try generatedSource([one]).contains("internal typealias Balance = RocketRacerCatalog.Balance"))
        #expect(try !generatedSource([one, other]).contains("typealias"))
        #expect(try !generatedSource([one], options: CodegenOptions(typeAliases: false)).contains("typealias"))
    }

    @Test(arguments: [AccessLevel.public, .package])
    func accessLevelAppliesToEveryDeclaration(_ access: AccessLevel) throws {
        let source = try generatedSource([loadCatalog(Self.everyType)], options: CodegenOptions(access: access))
        #expect(!source.contains("internal "))
        let declarations = trimmedLines(source).filter { $0.hasPrefix("enum ") || $0.hasPrefix("var ") || $0.hasPrefix("typealias ") || $0.hasPrefix("init") }
        #expect(declarations.isEmpty, "declarations without an access level: \(declarations)")
        #expect(source.contains("\(access.rawValue) enum RocketRacerCatalog {"))
        #expect(source.contains("\(access.rawValue) var unlocks: [RocketRacerCatalog.Feature] {"))
    }

    @Test func documentationNamesTheProductAndWhereItIsDeclared() throws {
        let source = try generatedSource([loadCatalog(Self.everyType, path: "/repo/Sources/App/store.yaml")], options: CodegenOptions(sourceRoot: "/repo"))
        #expect(source.hasPrefix("// Generated by storekeeper-codegen from Sources/App/store.yaml. Do not edit.\n"))
        let lines = trimmedLines(source)
        #expect(lines.contains("/// 100 Coins: a consumable, 0.99."))
        #expect(lines.contains("/// Pro Monthly: an auto-renewable subscription in the group `pro` at level 2, 0.99 every month."))
        #expect(lines.contains("/// Season Pass: a non-renewing subscription of P3M, 0.99."))
        #expect(lines.contains("/// Declared in `Sources/App/store.yaml`, line 10."))
    }

    @Test func commentTextCannotEndTheComment() throws {
        let text = catalogText(products: [product("Evil\\nprint(1) `x`")])
        let source = try generatedSource([loadCatalog(text)])
        #expect(trimmedLines(source).contains("/// Evil print(1) 'x': a non-consumable, 0.99."))
        #expect(!trimmedLines(source).contains { $0.hasPrefix("print(") })
    }
}
