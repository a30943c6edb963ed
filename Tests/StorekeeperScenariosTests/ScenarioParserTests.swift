import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperScenarios
import StorekeeperSimulatedStore
import StorekeeperYAML
import Testing

/// `ScenarioParser`: everything docs/simulate.md shows parses to the model
/// values it describes; every mistake is an error at the value to change.
@Suite struct ScenarioParserTests {
    // MARK: The documentation's examples

    @Test func everyExampleOfTheDocumentationParses() throws {
        let blocks = try ScenarioParsing.documentationBlocks()
        #expect(blocks.count >= 7)
        for block in blocks {
            let result = ScenarioParsing.parse(ScenarioParsing.asScenario(block.text), file: "simulate.md:\(block.line)")
            #expect(result.diagnostics.isEmpty, "docs/simulate.md:\(block.line): \(ScenarioParsing.describe(result.diagnostics))")
            #expect(result.scenario?.steps.isEmpty == false, "docs/simulate.md:\(block.line)")
        }
    }

    @Test func theFileExampleReadsEverySetting() throws {
        let scenario = try ScenarioParsing.scenario("""
            scenario: A purchase, an interrupted purchase, a restore on a new phone
            seed: 7                        # transaction ids and download progress (default 1)
            start: 2026-01-01T09:00:00Z    # the simulated clock at the start (default 2026-01-01T00:00:00Z)
            device: phone                  # the first device's name (default phone)
            user: player-8f14e45f          # the app's name for the user
            download-speed: 20             # simulated megabytes per second of hosted downloads (default 10)
            steps:
              - launch
              - buy: com.example.rocketracer.coins.100
              - expect:
                  balances: {coins: 100}
                  unfinished: 0
            """)
        #expect(scenario.file == "scenario.yaml")
        #expect(scenario.title == "A purchase, an interrupted purchase, a restore on a new phone")
        #expect(scenario.seed == 7)
        #expect(scenario.start == Date(timeIntervalSince1970: 1_767_258_000))
        #expect(scenario.device == "phone")
        #expect(scenario.user == "player-8f14e45f")
        #expect(scenario.downloadBytesPerSecond == 20_000_000)
        #expect(scenario.steps.map { ScenarioParsing.at($0.location) } == ["8:5", "9:5", "10:5"])
        #expect(scenario.steps[0].action == .launch(device: nil))
        guard case .buy(let purchase) = scenario.steps[1].action else {
            Issue.record("expected a buy, got \(scenario.steps[1].action)")
            return
        }
        #expect(purchase.product.value == "com.example.rocketracer.coins.100")
        #expect(ScenarioParsing.at(purchase.product.location) == "9:10")
        #expect(purchase.quantity.value == 1)
        #expect(purchase.user == nil && purchase.name == nil && purchase.outcome == .succeed)
        guard case .expect(let expectation) = scenario.steps[2].action else {
            Issue.record("expected an expect, got \(scenario.steps[2].action)")
            return
        }
        #expect(expectation.balances?.value == ["coins": 100])
        #expect(expectation.balances.map { ScenarioParsing.at($0.location) } == "11:17")
        #expect(expectation.unfinished?.value == .count(0))
        #expect(expectation.features == nil && expectation.owns == nil && expectation.told == nil)
    }

    @Test func settingsHaveTheirDefaults() throws {
        let scenario = try ScenarioParsing.scenario("steps: [launch]\n")
        #expect(scenario.title == nil)
        #expect(scenario.seed == 1)
        #expect(scenario.start == Scenario.defaultStart)
        #expect(scenario.device == "phone")
        #expect(scenario.user == nil)
        #expect(scenario.downloadBytesPerSecond == 10_000_000)
        #expect(scenario.steps.map(\.action) == [.launch(device: nil)])
        #expect(scenario.steps.first.map { ScenarioParsing.at($0.location) } == "1:9")
    }

    @Test func theAppActions() throws {
        let actions = try ScenarioParsing.actions("""
            steps:
              - launch
              - launch: tablet
              - quit
              - relaunch
              - crash
              - crash: {before: persist}
              - crash: {after: finish}
              - offline
              - online
              - retry
            """)
        #expect(actions.count == 10)
        #expect(Array(actions[0...4]) == [.launch(device: nil), .launch(device: "tablet"), .quit, .relaunch, .crash(nil)])
        guard case .crash(let before?) = actions[5], case .crash(let after?) = actions[6] else {
            Issue.record("expected armed crashes, got \(actions[5]) and \(actions[6])")
            return
        }
        #expect(before.moment == .before && before.step.value == "persist")
        #expect(ScenarioParsing.at(before.step.location) == "7:21")
        #expect(after.moment == .after && after.step.value == "finish")
        #expect(Array(actions[7...]) == [.offline, .online, .retry])
    }

    @Test func theBuyingExample() throws {
        let actions = try ScenarioParsing.actions("""
            steps:
              - buy: com.example.pro                   # succeeds
              - buy:
                  product: com.example.coins.100
                  quantity: 3                          # 1 up to the product's max-quantity
                  user: kid-account                    # applicationUsername (default: the scenario's user)
                  as: coins                            # a name to refer to this purchase later
                  ask-to-buy: true                     # deferred until `approve` or `decline`
              - buy: {product: com.example.pro, fail: payment-cancelled}
              - buy: {product: com.example.pro, interrupted: true}
              - approve: coins
              - decline: com.example.coins.100
              - resolve: com.example.pro
            """)
        let purchases = actions.compactMap { action -> Purchase? in if case .buy(let purchase) = action { purchase } else { nil } }
        #expect(purchases.count == 4)
        #expect(purchases[0].product.value == "com.example.pro" && purchases[0].outcome == .succeed && purchases[0].quantity.value == 1)
        #expect(purchases[1].product.value == "com.example.coins.100")
        #expect(purchases[1].quantity.value == 3)
        #expect(ScenarioParsing.at(purchases[1].quantity.location) == "5:17")
        #expect(purchases[1].user == "kid-account")
        #expect(purchases[1].name?.value == "coins")
        #expect(purchases[1].outcome == .askToBuy)
        #expect(purchases[2].outcome == .fail(.paymentCancelled))
        #expect(purchases[3].outcome == .interrupted)
        guard case .approve(let approved) = actions[4], case .decline(let declined) = actions[5], case .resolve(let resolved) = actions[6] else {
            Issue.record("expected approve, decline, resolve; got \(actions[4...])")
            return
        }
        #expect(approved.value == "coins" && declined.value == "com.example.coins.100" && resolved.value == "com.example.pro")
        #expect(ScenarioParsing.at(approved.location) == "11:14")
    }

    @Test func everyStoreErrorIsAFailure() throws {
        for code in StoreErrorCode.allCases {
            let actions = try ScenarioParsing.actions("steps:\n  - buy: {product: com.example.pro, fail: \(code.rawValue)}\n")
            guard case .buy(let purchase) = actions.first else {
                Issue.record("no buy for \(code)")
                continue
            }
            #expect(purchase.outcome == .fail(code))
        }
    }

    @Test func falseOutcomesSucceed() throws {
        let actions = try ScenarioParsing.actions("steps:\n  - buy: {product: com.example.pro, ask-to-buy: false}\n")
        guard case .buy(let purchase) = actions.first else {
            Issue.record("no buy")
            return
        }
        #expect(purchase.outcome == .succeed)
    }

    @Test func theRestoringExample() throws {
        let actions = try ScenarioParsing.actions("""
            steps:
              - restore                                   # every completed transaction, again, as restored
              - restore: {user: player-8f14e45f}          # the applicationUsername given at purchase
              - restore: {select: [com.example.rocketracer.track.alps]}
              - refresh-receipt
            """)
        #expect(actions[0] == .restore(RestoreRequest()))
        #expect(actions[1] == .restore(RestoreRequest(user: "player-8f14e45f")))
        guard case .restore(let selected) = actions[2] else {
            Issue.record("expected a restore, got \(actions[2])")
            return
        }
        #expect(selected.user == nil)
        #expect(selected.selection?.map(\.value) == ["com.example.rocketracer.track.alps"])
        #expect(selected.selection?.first.map { ScenarioParsing.at($0.location) } == "4:24")
        #expect(actions[3] == .refreshReceipt)
    }

    @Test func theTimeExample() throws {
        let actions = try ScenarioParsing.actions("""
            steps:
              - advance: P1M               # ISO 8601: P1Y2M3W4DT5H6M7S
              - advance: 36h               # or a number with s, m, h, d, w
              - cancel-renewal: com.example.plus.monthly
            """)
        #expect(actions[0] == .advance(ScenarioDuration(months: 1)))
        #expect(actions[1] == .advance(ScenarioDuration(seconds: 36 * 3_600)))
        guard case .cancelRenewal(let product) = actions[2] else {
            Issue.record("expected cancel-renewal, got \(actions[2])")
            return
        }
        #expect(product.value == "com.example.plus.monthly")
        #expect(ScenarioParsing.at(product.location) == "4:21")
    }

    @Test func theRefundExample() throws {
        let actions = try ScenarioParsing.actions("""
            steps:
              - refund: coins                   # the user got their money back
              - refund: {purchase: pro, reason: family-sharing}   # family sharing stopped
              - refund: {purchase: pro}
            """)
        guard case .refund(let coins, let first) = actions[0], case .refund(let pro, let second) = actions[1],
              case .refund(_, let third) = actions[2] else {
            Issue.record("expected refunds, got \(actions)")
            return
        }
        #expect(coins.value == "coins" && first == .refund)
        #expect(pro.value == "pro" && second == .familySharing)
        #expect(ScenarioParsing.at(pro.location) == "3:24")
        #expect(third == .refund)
    }

    @Test func theDownloadsExample() throws {
        let actions = try ScenarioParsing.actions("""
            steps:
              - fail-downloads: {error: out-of-space, at: 40}   # the next download stops at 40%
              - fail-downloads: {error: network-error, at: 0}
              - pause-downloads
              - resume-downloads
              - cancel-downloads
            """)
        #expect(actions == [
            .failDownloads(DownloadFault(.outOfSpace, at: 40)), .failDownloads(DownloadFault(.networkError, at: 0)),
            .pauseDownloads, .resumeDownloads, .cancelDownloads,
        ])
    }

    @Test func theExpectationsExample() throws {
        let actions = try ScenarioParsing.actions("""
            steps:
              - expect:
                  features: [no-ads, rocket-car]        # exactly these features are unlocked
                  owns: [com.example.rocketracer.car]   # exactly these products are owned
                  subscriptions: []                     # exactly these subscriptions are active
                  balances: {coins: 300}                # these balances (others are not checked)
                  unfinished: 0                         # how many transactions the store holds unfinished
                  downloads:                            # the latest download of each product named
                    com.example.rocketracer.track.alps: {state: finished, storage: documents}
                    com.example.rocketracer.track.moon: {state: paused}
                  receipt: [com.example.rocketracer.car]    # the products the device's receipt lists
                  told:                                 # what the UI was told since the last expect, in this order
                    - notify com.example.rocketracer.car purchased
                    - error com.example.pro payment-cancelled
                    - restore finished
                    - restore failed network-error
                    - revoked com.example.pro
              - expect: {unfinished: [coins, com.example.pro]}
            """)
        guard case .expect(let expectation) = actions[0], case .expect(let names) = actions[1] else {
            Issue.record("expected two expects, got \(actions)")
            return
        }
        #expect(expectation.features?.value == ["no-ads", "rocket-car"])
        #expect(expectation.features.map { ScenarioParsing.at($0.location) } == "3:17")
        #expect(expectation.owns?.value == ["com.example.rocketracer.car"])
        #expect(expectation.subscriptions?.value == [])
        #expect(expectation.balances?.value == ["coins": 300])
        #expect(expectation.unfinished?.value == .count(0))
        #expect(expectation.downloads?.value == [
            "com.example.rocketracer.track.alps": DownloadExpectation(state: .finished, storage: .documents),
            "com.example.rocketracer.track.moon": DownloadExpectation(state: .paused),
        ])
        #expect(expectation.receipt?.value == ["com.example.rocketracer.car"])
        #expect(expectation.told?.value == [
            "notify com.example.rocketracer.car purchased", "error com.example.pro payment-cancelled",
            "restore finished", "restore failed network-error", "revoked com.example.pro",
        ])
        #expect(expectation.told.map { ScenarioParsing.at($0.location) } == "13:9")
        #expect(names.unfinished?.value == .purchases(["coins", "com.example.pro"]))
    }

    // MARK: Durations

    @Test(arguments: [
        ("P1Y2M3W4DT5H6M7S", ScenarioDuration(years: 1, months: 2, days: 25, seconds: 5 * 3_600 + 6 * 60 + 7)),
        ("P1Y", ScenarioDuration(years: 1)),
        ("P2W", ScenarioDuration(days: 14)),
        ("P1DT12H", ScenarioDuration(days: 1, seconds: 43_200)),
        ("PT90M", ScenarioDuration(seconds: 5_400)),
        ("PT1S", ScenarioDuration(seconds: 1)),
        ("90s", ScenarioDuration(seconds: 90)),
        ("15m", ScenarioDuration(seconds: 900)),
        ("36h", ScenarioDuration(seconds: 129_600)),
        ("3d", ScenarioDuration(days: 3)),
        ("2w", ScenarioDuration(days: 14)),
    ])
    func durations(text: String, duration: ScenarioDuration) throws {
        let actions = try ScenarioParsing.actions("steps:\n  - advance: \(text)\n")
        #expect(actions == [.advance(duration)])
    }

    /// The trace and messages echo a duration as the scenario wrote it, not
    /// as ISO 8601 seconds (`25h`, not `PT90000S`).
    @Test(arguments: ["25h", "P1M", "90m", "P1DT12H", "2w", "P2W", "PT90M"])
    func durationsKeepHowTheyAreWritten(text: String) throws {
        let actions = try ScenarioParsing.actions("steps:\n  - advance: \(text)\n")
        guard case .advance(let duration) = actions.first else {
            Issue.record("not an advance: \(actions)")
            return
        }
        #expect(duration.spelling == text)
        #expect(duration.description == text)
    }

    /// Made in code, a duration is described in a form a scenario takes.
    @Test(arguments: [
        (ScenarioDuration(seconds: 90_000), "25h"),
        (ScenarioDuration(seconds: 5_400), "90m"),
        (ScenarioDuration(seconds: 90), "90s"),
        (ScenarioDuration(days: 3), "3d"),
        (ScenarioDuration(months: 1), "P1M"),
        (ScenarioDuration(days: 1, seconds: 43_200), "P1DT12H"),
        (ScenarioDuration(years: 1, months: 2, days: 25, seconds: 5 * 3_600 + 6 * 60 + 7), "P1Y2M25DT5H6M7S"),
    ])
    func durationsMadeInCodeReadAsAScenarioWritesThem(duration: ScenarioDuration, text: String) throws {
        #expect(duration.description == text)
        // Read back, the same duration.
        #expect(try ScenarioParsing.actions("steps:\n  - advance: \(text)\n") == [.advance(duration)])
    }

    @Test(arguments: [
        ("0s", "scenario-value", "adds up to no time"),
        ("P0D", "scenario-value", "adds up to no time"),
        ("PT0H0M", "scenario-value", "adds up to no time"),
        ("P", "scenario-value", "is not a duration; write ISO 8601 such as P1M"),
        ("PT", "scenario-value", "T must be followed by hours"),
        ("P1H", "scenario-value", "hours, minutes and seconds come after T: PT1H"),
        ("P1M1Y", "scenario-value", "the parts go in the order"),
        ("P1", "scenario-value", "a number needs a unit"),
        ("90", "scenario-value", "write 90s, 90m, 90h, 90d or 90w"),
        ("1.5h", "scenario-value", "only whole numbers"),
        ("36H", "scenario-value", "lower case: 36h"),
        ("3M", "scenario-value", "write m for minutes, or P3M for months"),
        ("1y", "scenario-value", "P1Y"),
        ("p1m", "scenario-value", "capitals: P1M"),
        ("soon", "scenario-value", "90s, 15m, 36h, 3d, 2w"),
        ("-1h", "scenario-value", "is not a duration"),
        ("P1234567890D", "scenario-limit", "more than 9 digits"),
    ])
    func invalidDurations(text: String, rule: String, message: String) throws {
        let errors = ScenarioParsing.errors("steps:\n  - advance: \(text)\n")
        #expect(errors.count == 1, "\(ScenarioParsing.describe(errors))")
        let error = try #require(errors.first)
        #expect(error.rule == rule)
        #expect(error.message.contains(message), "\(error.message)")
        #expect(ScenarioParsing.at(error.location) == "2:14")
    }

    // MARK: Settings

    @Test func startIsAUTCDateAndTime() throws {
        #expect(try ScenarioParsing.scenario("start: 2024-02-29T23:59:59Z\nsteps: [launch]\n").start == Date(timeIntervalSince1970: 1_709_251_199))
        #expect(try ScenarioParsing.scenario("start: \"1970-01-01T00:00:00Z\"\nsteps: [launch]\n").start == Date(timeIntervalSince1970: 0))
    }

    @Test(arguments: [
        ("2026-02-30T09:00:00Z", "has no day 30 (month 2 of 2026 has 28 days)"),
        ("2100-02-29T09:00:00Z", "has no day 29 (month 2 of 2100 has 28 days)"),
        ("2026-13-01T09:00:00Z", "has no month 13"),
        ("2026-01-01T24:00:00Z", "has no such time of day"),
        ("2026-01-01", "has no time"),
        ("2026-01-01T09:00:00", "is not in UTC"),
        ("2026-01-01T09:00:00+02:00", "is not in UTC"),
        ("2026-01-01T09:00:00.5Z", "fractions of a second"),
        ("1969-12-31T23:59:59Z", "from 1970 on"),
        ("tomorrow", "YYYY-MM-DDTHH:MM:SSZ"),
    ])
    func invalidStarts(text: String, message: String) throws {
        let errors = ScenarioParsing.errors("start: \(text)\nsteps: [launch]\n")
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.rule == "scenario-value")
        #expect(error.message.contains(message), "\(error.message)")
        #expect(ScenarioParsing.at(error.location) == "1:8")
    }

    @Test func seedsGoUpTo2To63Minus1() throws {
        #expect(try ScenarioParsing.scenario("seed: 9223372036854775807\nsteps: [launch]\n").seed == UInt64(Int64.max))
        #expect(try ScenarioParsing.scenario("seed: 0\nsteps: [launch]\n").seed == 0)
        for (text, rule, message) in [
            ("9223372036854775808", "scenario-value", "it must be from 0 to 9223372036854775807"),
            ("99999999999999999999999", "scenario-value", "is too large"),
            ("-1", "scenario-value", "must be a whole number from 0 to 9223372036854775807, not '-1'"),
            ("\"7\"", "scenario-type", "in quotes; write 7 without quotes"),
            ("07", "scenario-value", "octal"),
            ("[7]", "scenario-type", "should be a single value"),
        ] {
            let errors = ScenarioParsing.errors("seed: \(text)\nsteps: [launch]\n")
            #expect(errors.map(\.rule) == [rule], "\(text): \(ScenarioParsing.describe(errors))")
            #expect(errors.first?.message.contains(message) == true, "\(text): \(errors.first?.message ?? "")")
            #expect(errors.first.map { ScenarioParsing.at($0.location) } == "1:7")
        }
    }

    @Test func downloadSpeedIsMegabytesFrom1To100000() throws {
        #expect(try ScenarioParsing.scenario("download-speed: 100000\nsteps: [launch]\n").downloadBytesPerSecond == 100_000_000_000)
        #expect(try ScenarioParsing.scenario("download-speed: 1\nsteps: [launch]\n").downloadBytesPerSecond == 1_000_000)
        for text in ["0", "100001", "2.5"] {
            let errors = ScenarioParsing.errors("download-speed: \(text)\nsteps: [launch]\n")
            #expect(errors.map(\.rule) == ["scenario-value"], "\(text)")
            #expect(errors.first?.message.contains("from 1 to 100000") == true, "\(errors.first?.message ?? "")")
            #expect(errors.first.map { ScenarioParsing.at($0.location) } == "1:17")
        }
    }

    @Test func deviceNamesAreLettersDigitsAndPunctuation() throws {
        #expect(try ScenarioParsing.scenario("device: iPad_2.mini-5\nsteps: [launch]\n").device == "iPad_2.mini-5")
        let errors = ScenarioParsing.errors("device: my phone\nsteps:\n  - launch: tablet/2\n")
        #expect(ScenarioParsing.describe(errors) == """
            1:9 scenario-value: the device name 'my phone' contains a space; use only letters, digits, '-', '_' and '.', like phone
            3:13 scenario-value: the device of `launch` 'tablet/2' contains '/' (U+002F); use only letters, digits, '-', '_' and '.', like tablet
            """)
    }

    // MARK: Errors in the file

    @Test func unknownKeysSuggestTheNearest() throws {
        let errors = ScenarioParsing.errors("""
            sede: 7
            colour: red
            steps:
              - buy: {product: com.example.pro, quantty: 2}
              - crash: {befor: finish}
              - expect: {balance: {coins: 1}}
              - fail-downloads: {error: out-of-space, at: 3, when: now}
            """)
        #expect(ScenarioParsing.describe(errors) == """
            1:1 scenario-unknown-key: unknown key 'sede' in a scenario; did you mean 'seed'?
            2:1 scenario-unknown-key: unknown key 'colour' in a scenario; expected one of: scenario, seed, start, device, user, download-speed, steps
            4:37 scenario-unknown-key: unknown key 'quantty' in a buy; did you mean 'quantity'?
            5:13 scenario-unknown-key: unknown key 'befor' in a crash; did you mean 'before'?
            6:14 scenario-unknown-key: unknown key 'balance' in an expect; did you mean 'balances'?
            7:50 scenario-unknown-key: unknown key 'when' in fail-downloads; expected one of: error, at
            """)
    }

    /// A key with no value in a flow mapping is most often a value cut at its
    /// comma: said so, with the fix, as in catalogs (the readers are shared).
    @Test func aKeyCutAtACommaIsSaidSo() throws {
        let errors = ScenarioParsing.errors("steps:\n  - spend: {balance: coins, amount: 5, key: sword, shield}\n")
        #expect(ScenarioParsing.describe(errors) == """
            2:52 scenario-unknown-key: unknown key 'shield' in a spend; it has no ':' and no value: in a flow mapping ({...}) a comma ends a plain value, \
            so if 'shield' belongs to the value before it, quote that value ("like this, with its comma"); the keys are: balance, amount, key, crash
            """)
    }

    /// A boolean of the wrong kind is shown both values, as in catalogs.
    @Test func aBooleanOfTheWrongKindSaysTrueOrFalse() throws {
        let errors = ScenarioParsing.errors("steps:\n  - buy: {product: com.example.pro, ask-to-buy: [true]}\n")
        #expect(ScenarioParsing.describe(errors) == "2:49 scenario-type: 'ask-to-buy' should be a single value such as true or false, not a list")
    }

    @Test func stepsAreRequiredAndNotEmpty() throws {
        #expect(ScenarioParsing.describe(ScenarioParsing.errors("seed: 3\n")) == "1:1 scenario-missing: this scenario is missing 'steps'; add `steps: [launch]`")
        #expect(ScenarioParsing.describe(ScenarioParsing.errors("steps: []\n")) == "1:8 scenario-missing: 'steps' is empty; list at least one action, such as `- launch`")
        #expect(ScenarioParsing.describe(ScenarioParsing.errors("steps: launch\n")) == "1:8 scenario-type: 'steps' should be a list such as [launch, quit], not a single value")
        #expect(ScenarioParsing.describe(ScenarioParsing.errors("steps:\n")) == "1:7 scenario-type: 'steps' has no value; it should be a list such as [launch, quit]")
        #expect(ScenarioParsing.describe(ScenarioParsing.errors("stepz: [launch]\n")) == "1:1 scenario-unknown-key: unknown key 'stepz' in a scenario; did you mean 'steps'?")
        #expect(ScenarioParsing.describe(ScenarioParsing.errors("")) == "1:1 document-count: the file is empty")
        #expect(ScenarioParsing.describe(ScenarioParsing.errors("# nothing but a comment\n")) == "1:1 document-count: the file holds no YAML document, only comments or blank lines")
        #expect(ScenarioParsing.describe(ScenarioParsing.errors("- launch\n")) == "1:1 scenario-type: a scenario file is a mapping of keys (scenario, seed, start, device, user, download-speed, steps), not a list")
    }

    @Test func unknownActionsSuggestTheNearest() throws {
        let errors = ScenarioParsing.errors("""
            steps:
              - lanch
              - bui: com.example.pro
              - dance
              - refresh
              - buy:com.example.pro
            """)
        #expect(ScenarioParsing.describe(errors) == """
            2:5 scenario-unknown-action: 'lanch' is not an action; did you mean 'launch'?
            3:5 scenario-unknown-action: 'bui' is not an action; did you mean 'buy'?
            4:5 scenario-unknown-action: 'dance' is not an action; the actions are launch, quit, relaunch, crash, buy, approve, decline, resolve, offline, online, retry, restore, refresh-receipt, advance, cancel-renewal, refund, fail-downloads, pause-downloads, resume-downloads, cancel-downloads, spend, expect
            5:5 scenario-unknown-action: 'refresh' is not an action; did you mean 'refresh-receipt'?
            6:5 scenario-type: 'buy:com.example.pro' is read as one word; put a space after the colon: `buy: com.example.pro`
            """)
    }

    @Test func actionsTakeTheirArgumentsOnly() throws {
        let errors = ScenarioParsing.errors("""
            steps:
              - buy
              - quit: now
              - launch:
              - expect
              - [launch]
              -
              - {}
            """)
        #expect(ScenarioParsing.describe(errors) == """
            2:5 scenario-missing: 'buy' needs an argument; write `buy: com.example.product`
            3:11 scenario-type: 'quit' takes no argument; write `- quit`
            4:12 scenario-type: the device of `launch` has no value; write one such as tablet
            5:5 scenario-missing: 'expect' needs an argument; write `expect: {unfinished: 0}`
            6:5 scenario-type: a step is an action such as `launch` or `buy: PRODUCT`, not a list; put each action in its own item ('- ')
            7:4 scenario-type: this step is empty; write an action such as `launch` or `buy: PRODUCT`
            8:5 scenario-type: this step is an empty mapping; write an action such as `launch` or `buy: PRODUCT`
            """)
    }

    @Test func aStepHoldsOneAction() throws {
        let errors = ScenarioParsing.errors("""
            steps:
              - buy: com.example.pro
                as: pro
              - launch: tablet
                quit:
              - offline: 
                extra: 1
            """)
        #expect(ScenarioParsing.describe(errors) == """
            3:5 scenario-type: 'as' belongs inside the buy: write `buy: {product: PRODUCT, as: ...}`, or indent it under `buy:` with the product as `product:`
            5:5 scenario-type: a step holds one action, and this one also has 'quit'; put 'quit' in its own item ('- quit')
            6:5 scenario-type: 'offline' takes no argument; write `- offline`
            7:5 scenario-type: a step holds one action, and 'extra' is a second key of this one; remove it, or indent it under 'offline' if it belongs to it
            """)
    }

    @Test func buyErrors() throws {
        let errors = ScenarioParsing.errors("""
            steps:
              - buy: {quantity: 2}
              - buy: {product: com.example.pro, quantity: 0}
              - buy: {product: com.example.pro, ask-to-buy: true, fail: payment-cancelled}
              - buy: {product: com.example.pro, fail: payment-canceled}
              - buy: {product: com.example.pro, ask-to-buy: yes}
              - buy: {product: com.example.pro, interrupted: "true"}
              - buy: {product: com.example.pro, as: my coins}
              - buy: com example pro
              - buy: [com.example.pro]
            """)
        #expect(ScenarioParsing.describe(errors) == """
            2:10 scenario-missing: this buy is missing 'product'; add `product: com.example.product`
            3:47 scenario-value: 'quantity' is 0; it must be from 1 to 9223372036854775807
            4:55 scenario-conflict: a buy has at most one outcome, and this one already has 'ask-to-buy'; keep one of ask-to-buy, fail, interrupted
            5:43 scenario-value: 'payment-canceled' is not a valid store error for 'fail'; did you mean 'payment-cancelled'? (expected one of: unknown, client-invalid, payment-cancelled, payment-invalid, payment-not-allowed, product-not-available, network-error, cloud-service-permission-denied, cloud-service-network-connection-failed, cloud-service-revoked, verification-failed)
            6:49 scenario-value: 'yes' is not a boolean in YAML 1.2 (some tools read it as true, others as text); write true
            7:50 scenario-type: 'interrupted' is the text "true" in quotes; write true without quotes for a boolean
            8:41 scenario-value: the name given with 'as' 'my coins' contains a space; use only letters, digits, '-', '_' and '.', like coins
            9:10 scenario-value: the product id 'com example pro' contains a space; product ids use only letters, digits, '.', '_' and '-'
            10:10 scenario-type: the argument of `buy` should be a mapping such as {product: com.example.product, quantity: 2}, not a list
            """)
        let conflict = try #require(errors.first { $0.rule == "scenario-conflict" })
        #expect(conflict.notes.map { ScenarioParsing.at($0.location) } == ["4:37"])
    }

    @Test func crashErrors() throws {
        let errors = ScenarioParsing.errors("""
            steps:
              - crash: {after: download}
              - crash: {before: persist, after: finish}
              - crash: {}
              - crash: finish
              - crash: {before: }
            """)
        #expect(ScenarioParsing.describe(errors) == """
            2:20 scenario-value: a crash comes after `finish` only (`after: finish`: the store finished the transaction, the journal has not noted it); to crash when a plan reaches 'download', write `before: download`
            3:30 scenario-conflict: a crash is armed either before a step or after finish, not both; remove 'after'
            4:12 scenario-missing: `crash` needs `before: STEP` (the app dies when a plan reaches STEP) or `after: finish`
            5:12 scenario-type: `crash` takes a mapping, `crash: {before: finish}` (or `after: finish`), or nothing for a crash now
            6:21 scenario-type: the step of a crash has no value; write one such as finish
            """)
    }

    @Test func restoreRefundAndDownloadErrors() throws {
        let errors = ScenarioParsing.errors("""
            steps:
              - restore: player-1
              - restore: {select: [com.example.a, com.example.b, com.example.a]}
              - refund: {reason: refund}
              - refund: {purchase: pro, reason: chargeback}
              - fail-downloads: {error: out-of-memory, at: 100}
              - fail-downloads: {at: 5}
              - approve: [pro]
            """)
        #expect(ScenarioParsing.describe(errors) == """
            2:14 scenario-type: the argument of `restore` should be a mapping such as {user: NAME, select: [PRODUCT]}, not a single value
            3:54 scenario-duplicate: 'com.example.a' is listed twice in 'select'; remove this one
            4:13 scenario-missing: this refund is missing 'purchase'; add `purchase: NAME`
            5:37 scenario-value: 'chargeback' is not a valid reason for a refund (expected one of: refund, family-sharing)
            6:29 scenario-value: 'out-of-memory' is not a valid download error (expected one of: out-of-space, network-error)
            6:48 scenario-value: the percentage 'at' is 100; it must be from 0 to 99
            7:21 scenario-missing: `fail-downloads` is missing 'error'; add `error: out-of-space`
            8:14 scenario-type: the purchase of `approve` should be a single value such as an `as` name or a product id, not a list
            """)
        let duplicate = try #require(errors.first { $0.rule == "scenario-duplicate" })
        #expect(duplicate.notes.map { ScenarioParsing.at($0.location) } == ["3:24"])
    }

    @Test func expectationErrors() throws {
        let errors = ScenarioParsing.errors("""
            steps:
              - expect:
                  features: [no-ads, rocket-car, no-ads]
                  owns: com.example.pro
                  balances: {coins: -5}
                  unfinished: {coins: 1}
                  downloads:
                    com.example.pack: finished
                    com.example.moon: {state: done, storage: icloud}
                    com.example.sun: {storage: cache}
                  told:
                    - notify com.example.pro bought
                    - restore done
                    - tell me
                    - error com.example.pro
            """)
        #expect(ScenarioParsing.describe(errors) == """
            3:38 scenario-duplicate: 'no-ads' is listed twice in 'features'; remove this one
            4:13 scenario-type: 'owns' should be a list such as [com.example.product], not a single value
            5:25 scenario-value: the balance 'coins' must be a whole number from 0 to 9223372036854775807, not '-5'
            6:19 scenario-type: 'unfinished' should be a count or a list, not a mapping; write a count such as 0, or a list of names such as [coins]
            8:27 scenario-type: the download of 'com.example.pack' is a mapping; write `{state: finished}`
            9:35 scenario-value: 'done' is not a valid download state; did you mean 'none'? (expected one of: none, active, paused, failed, cancelled, finished)
            9:50 scenario-value: 'icloud' is not a valid download storage (expected one of: cache, documents)
            10:26 scenario-missing: the download of 'com.example.sun' is missing 'state'; add `state: finished`
            12:11 scenario-value: 'notify com.example.pro bought' has 'bought' where a transaction state goes; (expected one of: purchasing, deferred, purchased, failed, restored)
            13:11 scenario-value: 'restore done' is not a message; write `restore finished` or `restore failed CODE`
            14:11 scenario-value: 'tell me' is not a message the UI is told; write one of: notify PRODUCT STATE, error PRODUCT CODE, restore finished, restore failed CODE, revoked PRODUCT, spent KEY, spend refused KEY CODE
            15:11 scenario-value: 'error com.example.pro' is not a message; write `error PRODUCT CODE`, such as error com.example.pro payment-cancelled
            """)
    }

    @Test func askToBuyExpectsWhatBecameOfEachRequest() throws {
        let actions = try ScenarioParsing.actions("""
            steps:
              - expect:
                  ask-to-buy: {kid-coins: expired, com.example.pro: approved, late: waiting, no: declined}
            """)
        guard case .expect(let expectation) = actions.first else {
            Issue.record("not an expect: \(actions)")
            return
        }
        #expect(expectation.askToBuy?.value == ["kid-coins": .expired, "com.example.pro": .approved, "late": .waiting, "no": .declined])
        #expect(expectation.askToBuy.map { ScenarioParsing.at($0.location) } == "3:19")
        let errors = ScenarioParsing.errors("""
            steps:
              - expect:
                  ask-to-buy: {kid-coins: expird}
              - expect:
                  ask-to-buy: [kid-coins]
            """)
        #expect(ScenarioParsing.describe(errors) == """
            3:31 scenario-value: 'expird' is not a valid Ask to Buy state; did you mean 'expired'? (expected one of: waiting, approved, declined, expired)
            5:19 scenario-type: 'ask-to-buy' should be a mapping such as {coins: approved}, not a list
            """)
    }

    @Test func anEmptyExpectIsAWarningOnly() throws {
        let result = ScenarioParsing.parse("steps:\n  - expect: {}\n")
        #expect(result.scenario?.steps.map(\.action) == [.expect(Expectation())])
        #expect(ScenarioParsing.describe(result.diagnostics) == "2:13 scenario-missing: this expect checks nothing; give at least one of features, owns, subscriptions, balances, overdrawn, unfinished, downloads, receipt, told, ask-to-buy")
        #expect(result.diagnostics.first?.severity == .warning)
        #expect(!result.hasErrors)
    }

    // MARK: YAML

    @Test func yamlErrorsKeepTheirIdsAndStopTheScenario() throws {
        let duplicate = ScenarioParsing.errors("seed: 1\nseed: 2\nsteps: [launch]\n")
        #expect(ScenarioParsing.describe(duplicate) == "2:1 duplicate-key: the key 'seed' appears twice in this mapping, and only the first would count; remove or rename this one")
        let syntax = ScenarioParsing.errors("steps:\n  - buy: {product: com.example.pro\n")
        #expect(syntax.map(\.rule) == [YAMLRuleID.syntax])
        let alias = ScenarioParsing.errors("steps:\n  - launch\n  - *missing\n")
        #expect(alias.map(\.rule) == [YAMLRuleID.alias], "\(ScenarioParsing.describe(alias))")
    }

    @Test func anchorsAndAliasesWork() throws {
        let actions = try ScenarioParsing.actions("""
            steps:
              - &pro {buy: {product: com.example.pro, as: first}}
              - expect: &none {unfinished: 0}
              - expect: *none
            """)
        #expect(actions.count == 3)
        #expect(actions[1] == actions[2])
    }

    @Test func loadReadsThroughASourceReader() throws {
        let reader = InMemorySourceReader(["scenarios/a.yaml": "steps: [launch, quit]\n"])
        let loaded = ScenarioParser().load("scenarios/a.yaml", reader: reader)
        #expect(loaded.scenario?.steps.map(\.action) == [.launch(device: nil), .quit])
        #expect(loaded.scenario?.file == "scenarios/a.yaml")
        let missing = ScenarioParser().load("scenarios/b.yaml", reader: reader)
        #expect(ScenarioParsing.describe(missing.diagnostics) == "1:1 scenario-unreadable: cannot read the scenario: no such file: scenarios/b.yaml")
        #expect(missing.scenario == nil)
        let small = ScenarioParser(limits: YAMLLimits(maxFileSize: 10)).load("scenarios/a.yaml", reader: reader)
        #expect(small.diagnostics.map(\.rule) == [YAMLRuleID.limit])
    }

    // MARK: Limits

    @Test func atMost10000Steps() throws {
        let allowed = ScenarioParsing.parse("steps:\n" + String(repeating: "  - retry\n", count: 10_000))
        #expect(allowed.scenario?.steps.count == 10_000)
        #expect(allowed.diagnostics.isEmpty)
        let over = ScenarioParsing.errors("steps:\n" + String(repeating: "  - retry\n", count: 10_002))
        #expect(ScenarioParsing.describe(over) == "10002:5 scenario-limit: a scenario has at most 10000 steps, and this one has 10002; this is step 10001. Split it into several scenarios")
    }

    @Test func hostileInputIsBoundedByTheYAMLLimits() throws {
        let clock = ContinuousClock()
        let started = clock.now
        // Deep nesting.
        let deep = ScenarioParsing.errors("steps:\n  - expect: {told: " + String(repeating: "[", count: 100_000) + "\n")
        #expect(deep.map(\.rule) == [YAMLRuleID.limit])
        // An alias bomb.
        var bomb = "a0: &a0 [retry, retry, retry, retry, retry, retry, retry, retry, retry, retry]\n"
        for level in 1...9 {
            bomb += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        bomb += "steps: *a9\n"
        let exploded = ScenarioParsing.errors(bomb)
        #expect(exploded.contains { $0.rule == YAMLRuleID.limit })
        // A file over the size limit.
        let large = ScenarioParser(limits: YAMLLimits(maxFileSize: 1_000)).parse("steps:\n" + String(repeating: "  - retry\n", count: 200), file: "large.yaml")
        #expect(large.diagnostics.map(\.rule) == [YAMLRuleID.limit])
        #expect(large.scenario == nil)
        #expect(clock.now - started < .seconds(20))
    }

    @Test func aFileOfMistakesListsAThousand() throws {
        let errors = ScenarioParsing.errors("steps:\n" + String(repeating: "  - dance\n", count: 5_000))
        #expect(errors.count == 1_001)
        #expect(errors.filter { $0.message == "4000 more problems were found and not listed (at most 1000 are listed for a scenario); fix these and run again" }.map(\.rule) == ["scenario-limit"])
    }

    @Test func duplicateEntriesOfAHugeSetAreBounded() throws {
        let text = "steps:\n  - expect: {features: [" + Array(repeating: "a", count: 50_000).joined(separator: ", ") + "]}\n"
        let errors = ScenarioParsing.errors(text)
        #expect(errors.count == 1_001)
        #expect(errors.filter { $0.rule == "scenario-duplicate" }.count == 1_000)
        #expect(errors.contains { $0.rule == "scenario-limit" && $0.message.hasPrefix("48999 more problems") })
    }
}
