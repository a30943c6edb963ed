import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperSimulatedStore
import StorekeeperYAML

/// Decodes the argument of `expect` (docs/simulate.md, "Expectations").
enum ExpectationDecoder {
    static let keys = ["features", "owns", "subscriptions", "balances", "overdrawn", "unfinished", "downloads", "receipt", "told", "ask-to-buy"]
    static let downloadKeys = ["state", "storage"]
    /// The forms of a `told` message.
    static let messageForms = ["notify PRODUCT STATE", "error PRODUCT CODE", "restore finished", "restore failed CODE", "revoked PRODUCT",
                               "spent KEY", "spend refused KEY CODE"]
    /// Why a spend is refused, as `spend refused KEY CODE` says it.
    static let spendRefusals = ["insufficient-balance", "spend-key-reused", "unavailable", "refused", "not-configured", "invalid", "journal-failed"]

    /// The expectation; nil (reported) when it is not a mapping. A key whose
    /// value is not valid is reported and left out, and the others kept, so
    /// that they are still checked against the catalog (the step is not
    /// valid all the same: the context counted the error).
    static func decode(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Expectation? {
        guard context.expectMapping(node, "the argument of `expect`", example: "{features: [pro], unfinished: 0}") else { return nil }
        let fields = context.fields(of: node, in: "an expect", known: keys)
        var expectation = Expectation()
        if let pair = fields["features"] { expectation.features = context.stringSet(pair.value, "'features'", example: "no-ads") }
        if let pair = fields["owns"] { expectation.owns = context.stringSet(pair.value, "'owns'", example: "com.example.product") }
        if let pair = fields["subscriptions"] {
            expectation.subscriptions = context.stringSet(pair.value, "'subscriptions'", example: "com.example.monthly")
        }
        if let pair = fields["receipt"] { expectation.receipt = context.stringSet(pair.value, "'receipt'", example: "com.example.product") }
        if let pair = fields["balances"] { expectation.balances = balances(pair.value, context: &context) }
        if let pair = fields["overdrawn"] { expectation.overdrawn = balances(pair.value, context: &context) }
        if let pair = fields["unfinished"] { expectation.unfinished = unfinished(pair.value, context: &context) }
        if let pair = fields["downloads"] { expectation.downloads = downloads(pair.value, context: &context) }
        if let pair = fields["told"] { expectation.told = told(pair.value, context: &context) }
        if let pair = fields["ask-to-buy"] { expectation.askToBuy = askToBuy(pair.value, context: &context) }
        if node.pairs.isEmpty {
            context.report(.warning, ScenarioRuleID.missing, "this expect checks nothing; give at least one of \(keys.joined(separator: ", "))", at: node.range)
        }
        return expectation
    }

    /// `balances: {coins: 300}`: names and amounts of 0 or more.
    private static func balances(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<[String: Int]>? {
        guard context.expectMapping(node, "'balances'", example: "{coins: 300}") else { return nil }
        var amounts: [String: Int] = [:]
        var ok = true
        for pair in node.pairs {
            guard let name = context.string(pair.key, "a balance's name", example: "coins", nonEmpty: true),
                  let amount = context.integer(pair.value, "the balance '\(name.value)'", in: 0...Int(Int64.max))
            else {
                ok = false
                continue
            }
            amounts[name.value] = amount.value
        }
        return ok ? Located(amounts, at: node.range) : nil
    }

    /// `unfinished: 0` or `unfinished: [coins, com.example.pro]`.
    private static func unfinished(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<UnfinishedExpectation>? {
        switch node.kind {
        case .sequence:
            let names = context.uniqueList(node, "'unfinished'", example: "coins") { context, item in
                context.string(item, "an entry of 'unfinished'", example: "an `as` name or a product id", nonEmpty: true)
            }
            return names.map { Located(.purchases($0.map(\.value)), at: node.range) }
        case .scalar:
            if node.isNull || context.isPlaceholder(node) { break }
            return context.integer(node, "'unfinished'", in: 0...Int(Int64.max)).map { Located(.count($0.value), at: node.range) }
        case .mapping:
            break
        }
        if node.isPlaceholder { return nil }
        let problem = node.isNull ? "has no value" : "should be a count or a list, not a mapping"
        context.error(ScenarioRuleID.type, "'unfinished' \(problem); write a count such as 0, or a list of names such as [coins]", at: node)
        return nil
    }

    /// `downloads: {PRODUCT: {state: finished, storage: documents}}`.
    private static func downloads(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<[String: DownloadExpectation]>? {
        guard context.expectMapping(node, "'downloads'", example: "{com.example.pack: {state: finished}}") else { return nil }
        var result: [String: DownloadExpectation] = [:]
        var ok = true
        for pair in node.pairs {
            guard let product = context.productID(pair.key, "a product of 'downloads'") else {
                ok = false
                continue
            }
            if pair.value.kind == .scalar, !pair.value.isNull, let text = pair.value.text, !context.isPlaceholder(pair.value) {
                context.error(ScenarioRuleID.type, "the download of '\(product.value)' is a mapping; write `{state: \(text)}`", at: pair.value)
                ok = false
                continue
            }
            guard context.expectMapping(pair.value, "the download of '\(product.value)'", example: "{state: finished, storage: documents}") else {
                ok = false
                continue
            }
            let fields = context.fields(of: pair.value, in: "a download", known: downloadKeys)
            var state: DownloadState?
            var storage: ContentStorage?
            if let field = fields["state"] {
                state = context.choice(field.value, "download state", among: [DownloadState.none, .active, .paused, .failed, .cancelled, .finished])?.value
            } else {
                context.missing("state", in: pair.value, of: "the download of '\(product.value)'", example: "finished")
            }
            if let field = fields["storage"] {
                storage = context.choice(field.value, "download storage", among: ContentStorage.allCases)?.value
            }
            guard let state else {
                ok = false
                continue
            }
            result[product.value] = DownloadExpectation(state: state, storage: storage)
        }
        return ok ? Located(result, at: node.range) : nil
    }

    /// `ask-to-buy: {coins: expired}`: purchases (`as` names or product ids)
    /// and what became of the Ask to Buy request each made.
    private static func askToBuy(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<[String: AskToBuyState]>? {
        guard context.expectMapping(node, "'ask-to-buy'", example: "{coins: approved}") else { return nil }
        var result: [String: AskToBuyState] = [:]
        var ok = true
        for pair in node.pairs {
            guard let name = context.string(pair.key, "a purchase of 'ask-to-buy'", example: "an `as` name or a product id", nonEmpty: true),
                  let state = context.choice(pair.value, "Ask to Buy state", among: AskToBuyState.allCases)
            else {
                ok = false
                continue
            }
            result[name.value] = state.value
        }
        return ok ? Located(result, at: node.range) : nil
    }

    /// `told: [notify PRODUCT STATE, ...]`: messages of the forms the UI is told.
    private static func told(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<[String]>? {
        guard context.expectSequence(node, "'told'", example: "[restore finished]") else { return nil }
        var messages: [String] = []
        var ok = true
        for item in node.items {
            guard let message = context.string(item, "an entry of 'told'", example: "notify PRODUCT purchased", nonEmpty: true) else {
                ok = false
                continue
            }
            if let problem = problem(with: message.value) {
                context.error(ScenarioRuleID.value, "'\(message.value)' \(problem)", at: item)
                ok = false
                continue
            }
            messages.append(message.value)
        }
        return ok ? Located(messages, at: node.range) : nil
    }

    /// What is wrong with a `told` message, or nil.
    static func problem(with message: String) -> String? {
        let words = message.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let forms = "write one of: \(messageForms.joined(separator: ", "))"
        guard let first = words.first else { return "is not a message; \(forms)" }
        func check<E: RawRepresentable & CaseIterable>(_ word: String, _ what: String, as type: E.Type) -> String? where E.RawValue == String {
            guard E(rawValue: word) == nil else { return nil }
            let names = E.allCases.map(\.rawValue)
            let hint = Suggestion.nearest(to: word, in: names).map { "did you mean '\($0)'? " } ?? ""
            return "has '\(word)' where \(what) goes; \(hint)(expected one of: \(names.joined(separator: ", ")))"
        }
        switch first {
        case "notify":
            guard words.count == 3, !words[1].isEmpty else { return "is not a message; write `notify PRODUCT STATE`, such as notify com.example.pro purchased" }
            return check(words[2], "a transaction state", as: TransactionState.self)
        case "error":
            guard words.count == 3, !words[1].isEmpty else { return "is not a message; write `error PRODUCT CODE`, such as error com.example.pro payment-cancelled" }
            return check(words[2], "a store error", as: StoreErrorCode.self)
        case "restore":
            if words == ["restore", "finished"] { return nil }
            guard words.count == 3, words[1] == "failed" else { return "is not a message; write `restore finished` or `restore failed CODE`" }
            return check(words[2], "a store error", as: StoreErrorCode.self)
        case "revoked":
            guard words.count == 2, !words[1].isEmpty else { return "is not a message; write `revoked PRODUCT`" }
            return nil
        case "spent":
            guard words.count == 2, !words[1].isEmpty else { return "is not a message; write `spent KEY`, such as spent sword-1" }
            return nil
        case "spend":
            guard words.count == 4, words[1] == "refused", !words[2].isEmpty else {
                return "is not a message; write `spend refused KEY CODE`, such as spend refused sword-1 insufficient-balance"
            }
            guard !spendRefusals.contains(words[3]) else { return nil }
            let hint = Suggestion.nearest(to: words[3], in: spendRefusals).map { "did you mean '\($0)'? " } ?? ""
            return "has '\(words[3])' where why the spend was refused goes; \(hint)(expected one of: \(spendRefusals.joined(separator: ", ")))"
        default:
            let hint = Suggestion.nearest(to: first, in: ["notify", "error", "restore", "revoked", "spent", "spend"]).map { "did you mean '\($0)'? " } ?? ""
            return "is not a message the UI is told; \(hint)\(forms)"
        }
    }
}
