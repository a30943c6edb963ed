import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperRuntime
import StorekeeperScenarios
import StorekeeperSimulatedStore
import Testing

/// `ScenarioCheck` against the example catalogs: everything a scenario names
/// must exist in the catalog and fit what it names; each problem is located
/// at the value, with the nearest valid spelling.
@Suite struct ScenarioCheckTests {
    static let rocket = "com.example.rocketracer"

    @Test func aScenarioThatFitsTheCatalogHasNoProblems() throws {
        let diagnostics = try ScenarioParsing.check("""
            scenario: Rocket Racer, most of it
            steps:
              - launch
              - buy: {product: \(Self.rocket).coins.500, quantity: 10, as: coins}
              - buy: {product: \(Self.rocket).coins.14000, quantity: 3}
              - buy: {product: \(Self.rocket).tracks.canyon, ask-to-buy: true, as: canyon}
              - approve: canyon
              - decline: \(Self.rocket).tracks.canyon
              - buy: {product: \(Self.rocket).noads, interrupted: true}
              - resolve: \(Self.rocket).noads
              - crash: {before: audit-log}
              - crash: {before: download}
              - crash: {after: finish}
              - restore: {select: [\(Self.rocket).tracks.canyon, \(Self.rocket).tracks.neon]}
              - buy: \(Self.rocket).pro.monthly
              - advance: P99Y11M
              - cancel-renewal: \(Self.rocket).pro.monthly
              - refund: {purchase: coins, reason: refund}
              - expect:
                  features: [rocket-car, ad-free, pro-garage]
                  owns: [\(Self.rocket).noads, \(Self.rocket).pro.monthly]
                  subscriptions: [\(Self.rocket).pro.monthly, \(Self.rocket).seasonpass.spring]
                  balances: {coins: 5000, boosts: 0}
                  unfinished: [coins, \(Self.rocket).noads]
                  downloads: {\(Self.rocket).tracks.canyon: {state: finished, storage: documents}}
                  receipt: [\(Self.rocket).noads]
                  told: [notify \(Self.rocket).noads purchased, error \(Self.rocket).noads payment-cancelled, restore finished, revoked \(Self.rocket).coins.500]
            """)
        #expect(diagnostics.isEmpty, "\(ScenarioParsing.describe(diagnostics))")
    }

    @Test func productsTheCatalogDoesNotHave() throws {
        let diagnostics = try ScenarioParsing.check("""
            steps:
              - buy: com.example.rocketracer.coins.50
              - cancel-renewal: com.example.rocketracer.pro.montly
              - restore: {select: [com.example.rocketracer.tracks.canyn]}
              - buy: com.example.other.thing
            """)
        #expect(ScenarioParsing.describe(diagnostics) == """
            2:10 scenario-unknown-product: the catalog 'rocket-racer' has no product 'com.example.rocketracer.coins.50'; did you mean 'com.example.rocketracer.coins.500'?
            3:21 scenario-unknown-product: the catalog 'rocket-racer' has no product 'com.example.rocketracer.pro.montly'; did you mean 'com.example.rocketracer.pro.monthly'?
            4:24 scenario-unknown-product: the catalog 'rocket-racer' has no product 'com.example.rocketracer.tracks.canyn'; did you mean 'com.example.rocketracer.tracks.canyon'?
            5:10 scenario-unknown-product: the catalog 'rocket-racer' has no product 'com.example.other.thing'
            """)
        #expect(diagnostics.allSatisfy { $0.severity == .error })
    }

    @Test func productsInExpectationsAreCheckedAtTheirList() throws {
        let diagnostics = try ScenarioParsing.check("""
            steps:
              - expect:
                  owns: [com.example.rocketracer.noad]
                  subscriptions: [com.example.rocketracer.pro.yearli]
                  receipt: [com.example.rocketracer.vehicle.rocketcar, com.example.rocketracer.vehicle.rockettruck]
                  downloads: {com.example.rocketracer.tracks.neo: {state: none}}
                  told: [notify com.example.rocketracer.nods purchased, restore finished]
            """)
        #expect(ScenarioParsing.describe(diagnostics) == """
            3:13 scenario-unknown-product: the catalog 'rocket-racer' has no product 'com.example.rocketracer.noad'; did you mean 'com.example.rocketracer.noads'?
            4:22 scenario-unknown-product: the catalog 'rocket-racer' has no product 'com.example.rocketracer.pro.yearli'; did you mean 'com.example.rocketracer.pro.yearly'?
            5:16 scenario-unknown-product: the catalog 'rocket-racer' has no product 'com.example.rocketracer.vehicle.rockettruck'; did you mean 'com.example.rocketracer.vehicle.hovertruck'?
            6:18 scenario-unknown-product: the catalog 'rocket-racer' has no product 'com.example.rocketracer.tracks.neo'; did you mean 'com.example.rocketracer.tracks.neon'?
            7:13 scenario-unknown-product: the catalog 'rocket-racer' has no product 'com.example.rocketracer.nods' in the `told` message 'notify com.example.rocketracer.nods purchased'; did you mean 'com.example.rocketracer.noads'?
            """)
    }

    @Test func quantityIsAtMostTheProductsMaxQuantity() throws {
        let diagnostics = try ScenarioParsing.check("""
            steps:
              - buy: {product: com.example.rocketracer.coins.6500, quantity: 6}
              - buy: {product: com.example.rocketracer.vehicle.rocketcar, quantity: 2}
              - buy: {product: com.example.rocketracer.coins.6500, quantity: 5}
            """)
        #expect(ScenarioParsing.describe(diagnostics) == """
            2:66 scenario-limit: quantity 6 is too many: 'com.example.rocketracer.coins.6500' has a max-quantity of 5; buy at most 5
            3:73 scenario-limit: quantity 2 is too many: 'com.example.rocketracer.vehicle.rocketcar' is bought one at a time (only consumables with a `max-quantity` are bought several at once); buy at most 1
            """)
    }

    @Test func namesAreGivenOnceBeforeTheyAreUsed() throws {
        let diagnostics = try ScenarioParsing.check("""
            steps:
              - approve: coins
              - buy: {product: com.example.rocketracer.coins.500, as: coins, ask-to-buy: true}
              - buy: {product: com.example.rocketracer.coins.1200, as: coins}
              - buy: {product: com.example.rocketracer.noads, as: com.example.rocketracer.vehicle.rocketcar}
              - approve: coins
              - decline: coin
              - resolve: com.example.rocketracer.noads
              - refund: {purchase: nothing-like-it}
              - expect: {unfinished: [coins, cions, com.example.rocketracer.noads]}
            """)
        #expect(ScenarioParsing.describe(diagnostics) == """
            2:14 scenario-unknown-name: 'coins' is used before it is given: the buy that names it comes later, at line 3; refer to a purchase after the `buy` that gives it `as: coins`
            4:60 scenario-duplicate: the name 'coins' is already given to a purchase; an `as` name refers to one purchase, so choose another
            5:55 scenario-duplicate: the name 'com.example.rocketracer.vehicle.rocketcar' is a product id of the catalog, which references also read (the latest purchase of that product); choose a name that is not a product id
            7:14 scenario-unknown-name: 'coin' is neither a name given with `as` by an earlier buy nor a product of the catalog; did you mean 'coins'?
            9:24 scenario-unknown-name: 'nothing-like-it' is neither a name given with `as` by an earlier buy nor a product of the catalog (the names given so far are coins)
            10:26 scenario-unknown-name: 'cions' is neither a name given with `as` by an earlier buy nor a product of the catalog; did you mean 'coins'?
            """)
        let before = try #require(diagnostics.first)
        #expect(before.notes.map { ScenarioParsing.at($0.location) } == ["3:59"])
        let twice = try #require(diagnostics.first { $0.rule == "scenario-duplicate" })
        #expect(twice.notes.map { ScenarioParsing.at($0.location) } == ["3:59"])
    }

    @Test func crashStepsAreStepsOfThePlans() throws {
        let diagnostics = try ScenarioParsing.check("""
            steps:
              - crash: {before: finsh}
              - crash: {before: explode}
              - crash: {before: persist}
            """)
        let policy = try ScenarioParsing.policy("rocket-racer")
        let steps = Set(policy.plans.flatMap(\.stepNames)).sorted()
        #expect(steps.contains("audit-log") && steps.contains("download") && steps.contains("finish"))
        #expect(ScenarioParsing.describe(diagnostics) == """
            2:21 scenario-unknown-step: no plan of the catalog has a step 'finsh'; did you mean 'finish'? (the plans' steps are \(steps.joined(separator: ", ")))
            3:21 scenario-unknown-step: no plan of the catalog has a step 'explode' (the plans' steps are \(steps.joined(separator: ", ")))
            """)
    }

    @Test func cancelRenewalIsForAutoRenewableSubscriptions() throws {
        let diagnostics = try ScenarioParsing.check("""
            steps:
              - cancel-renewal: com.example.rocketracer.seasonpass.spring
              - cancel-renewal: com.example.rocketracer.noads
              - cancel-renewal: com.example.rocketracer.proplus.monthly
            """)
        let subscriptions = "com.example.rocketracer.pro.monthly, com.example.rocketracer.pro.yearly, com.example.rocketracer.proplus.monthly"
        #expect(ScenarioParsing.describe(diagnostics) == """
            2:21 scenario-not-applicable: 'com.example.rocketracer.seasonpass.spring' is a non-renewing subscription; `cancel-renewal` applies only to auto-renewable subscriptions (the catalog's are \(subscriptions))
            3:21 scenario-not-applicable: 'com.example.rocketracer.noads' is a non-consumable; `cancel-renewal` applies only to auto-renewable subscriptions (the catalog's are \(subscriptions))
            """)
    }

    @Test func selectingAProductWithoutHostedContentIsAWarning() throws {
        let diagnostics = try ScenarioParsing.check("""
            steps:
              - restore: {select: [com.example.rocketracer.noads, com.example.rocketracer.tracks.neon]}
            """)
        #expect(ScenarioParsing.describe(diagnostics) == """
            2:24 scenario-not-applicable: 'com.example.rocketracer.noads' has no Apple-hosted content, so a restore has nothing to select for it; `select` chooses among products with `selection: user`
            """)
        #expect(diagnostics.map(\.severity) == [.warning])
    }

    @Test func selectingAProductRestoredInAnyCaseIsAWarning() throws {
        let policy = try ScenarioParsing.policy(catalog: """
            catalog: test-shop
            app:
              bundle-id: com.example.shop
            features: [extra]
            products:
              - id: com.example.shop.pack
                type: non-consumable
                reference-name: Pack
                price: "0.99"
                localizations: {en-US: {title: Pack, description: A pack}}
                delivery: {model: built-in, unlocks: [extra], content: {source: apple-hosted, storage: cache}}
                persistence: receipt
                restore: {policy: restore-transactions, selection: all}
            """)
        let scenario = try ScenarioParsing.scenario("steps:\n  - restore: {select: [com.example.shop.pack]}\n")
        let diagnostics = ScenarioCheck.check(scenario, policy: policy)
        #expect(ScenarioParsing.describe(diagnostics) == """
            2:24 scenario-not-applicable: 'com.example.shop.pack' is restored whether selected or not (its catalog says `selection: all`); `select` chooses among products with `selection: user`
            """)
        #expect(diagnostics.map(\.severity) == [.warning])
        // A catalog without balances says so.
        let balances = ScenarioCheck.check(try ScenarioParsing.scenario("steps:\n  - expect: {balances: {coins: 1}}\n"), policy: policy)
        #expect(ScenarioParsing.describe(balances) == "2:24 scenario-undeclared: the catalog declares no balance 'coins' (it declares no balances)")
    }

    @Test func featuresAndBalancesAreTheCatalogs() throws {
        let diagnostics = try ScenarioParsing.check("""
            steps:
              - expect:
                  features: [rocketcar, ad-free, teleporter]
                  balances: {coin: 5, boosts: 1, gems: 2}
            """)
        #expect(ScenarioParsing.describe(diagnostics) == """
            3:17 scenario-undeclared: the catalog declares no feature 'rocketcar'; did you mean 'rocket-car'?
            3:17 scenario-undeclared: the catalog declares no feature 'teleporter' (its features are ad-free, canyon-tracks, daily-cup, hover-truck, neon-tracks, pro-garage, rocket-car, season-events)
            4:17 scenario-undeclared: the catalog declares no balance 'coin'; did you mean 'coins'?
            4:17 scenario-undeclared: the catalog declares no balance 'gems' (its balances are boosts, coins)
            """)
    }

    @Test func expectationsNameProductsThatFit() throws {
        let diagnostics = try ScenarioParsing.check("""
            steps:
              - expect:
                  owns: [com.example.rocketracer.coins.500, com.example.rocketracer.noads]
                  subscriptions: [com.example.rocketracer.vehicle.rocketcar]
                  downloads:
                    com.example.rocketracer.vehicle.hovertruck: {state: none}
                    com.example.rocketracer.tracks.canyon: {state: finished}
            """)
        #expect(ScenarioParsing.describe(diagnostics) == """
            3:13 scenario-not-applicable: 'com.example.rocketracer.coins.500' is a consumable, which is never owned; check what it grants with `balances`
            4:22 scenario-not-applicable: 'com.example.rocketracer.vehicle.rocketcar' is a non-consumable, not a subscription; list it in `owns` or check `balances`
            6:9 scenario-not-applicable: 'com.example.rocketracer.vehicle.hovertruck' has no Apple-hosted content, so it never downloads; `downloads` names products whose content is `apple-hosted` (the catalog's are com.example.rocketracer.tracks.canyon, com.example.rocketracer.tracks.neon)
            """)
    }

    @Test func advanceAddsUpToAtMost100Years() throws {
        #expect(try ScenarioParsing.check("steps:\n  - advance: P50Y\n  - advance: P50Y\n").isEmpty)
        #expect(try ScenarioParsing.check("start: 2024-02-29T00:00:00Z\nsteps:\n  - advance: P1200M\n").isEmpty)
        let over = try ScenarioParsing.check("""
            steps:
              - advance: P50Y
              - advance: P50Y
              - advance: 1s
              - advance: P1Y
            """)
        #expect(ScenarioParsing.describe(over) == """
            4:5 scenario-limit: with `advance: 1s` the simulated clock passes 100 years after the start; `advance` adds up to at most 100 years in a scenario
            """)
        let huge = try ScenarioParsing.check("steps:\n  - launch\n  - advance: P999999999Y\n")
        #expect(ScenarioParsing.describe(huge) == """
            3:5 scenario-limit: with `advance: P999999999Y` the simulated clock passes 100 years after the start; `advance` adds up to at most 100 years in a scenario
            """)
        let seconds = try ScenarioParsing.check("steps:\n  - advance: PT999999999H\n")
        #expect(seconds.map(\.rule) == ["scenario-limit"])
        // 2026 to 2126 is 36,524 days (2100 is no leap year): the calendar counts, not 365.25 days a year.
        #expect(try ScenarioParsing.check("steps:\n  - advance: 36524d\n").isEmpty)
        let days = try ScenarioParsing.check("steps:\n  - advance: 36524d\n  - advance: 2d\n")
        #expect(ScenarioParsing.describe(days) == """
            3:5 scenario-limit: with `advance: 2d` the simulated clock passes 100 years after the start; `advance` adds up to at most 100 years in a scenario
            """)
    }

    @Test func anotherCatalogsHostedContent() throws {
        let diagnostics = try ScenarioParsing.check("""
            steps:
              - buy: {product: com.example.dailyplanet.gifts.10, quantity: 5}
              - restore: {select: [com.example.dailyplanet.issue.2024.09, com.example.dailyplanet.issue.special.apollo]}
              - expect:
                  downloads:
                    com.example.dailyplanet.issue.2024.10: {state: finished, storage: cache}
                    com.example.dailyplanet.gifts.10: {state: none}
                  balances: {gift-articles: 50}
            """, against: "daily-planet")
        #expect(ScenarioParsing.describe(diagnostics) == """
            6:9 scenario-not-applicable: 'com.example.dailyplanet.gifts.10' has no Apple-hosted content, so it never downloads; `downloads` names products whose content is `apple-hosted` (the catalog's are com.example.dailyplanet.issue.2024.09, com.example.dailyplanet.issue.2024.10, com.example.dailyplanet.issue.2024.11, com.example.dailyplanet.issue.2024.12, com.example.dailyplanet.issue.special.apollo)
            """)
    }

    @Test func theListOfProblemsIsBounded() throws {
        let text = "steps:\n" + String(repeating: "  - buy: com.example.nothing\n", count: 3_000)
        let diagnostics = try ScenarioParsing.check(text)
        #expect(diagnostics.count == 1_001)
        #expect(diagnostics.filter { $0.rule == "scenario-limit" }.map(\.message) == [
            "2000 more problems were found and not listed (at most 1000 are listed for a scenario); fix these and run again",
        ])
    }
}
