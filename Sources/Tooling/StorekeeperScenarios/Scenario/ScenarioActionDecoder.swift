import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperSimulatedStore
import StorekeeperYAML

/// Decodes one item of `steps` into an action (docs/simulate.md, "Actions"):
/// a bare word, or a mapping with one key whose value is the argument.
enum ScenarioActionDecoder {
    /// Every action, in the order the documentation lists them.
    static let names = [
        "launch", "quit", "relaunch", "crash", "buy", "approve", "decline", "resolve", "offline", "online", "retry",
        "restore", "refresh-receipt", "advance", "cancel-renewal", "refund", "fail-downloads", "pause-downloads",
        "resume-downloads", "cancel-downloads", "spend", "expect",
    ]

    /// The actions written as a bare word.
    static let bare: [String: ScenarioAction] = [
        "launch": .launch(device: nil), "quit": .quit, "relaunch": .relaunch, "crash": .crash(nil),
        "offline": .offline, "online": .online, "retry": .retry, "restore": .restore(RestoreRequest()),
        "refresh-receipt": .refreshReceipt, "pause-downloads": .pauseDownloads, "resume-downloads": .resumeDownloads,
        "cancel-downloads": .cancelDownloads,
    ]

    /// How each action that takes an argument is written.
    static let examples: [String: String] = [
        "launch": "launch: tablet", "crash": "crash: {before: finish}", "buy": "buy: com.example.product",
        "approve": "approve: NAME", "decline": "decline: NAME", "resolve": "resolve: NAME",
        "restore": "restore: {user: NAME}", "advance": "advance: P1M", "cancel-renewal": "cancel-renewal: com.example.monthly",
        "refund": "refund: NAME", "fail-downloads": "fail-downloads: {error: out-of-space, at: 40}",
        "spend": "spend: {balance: coins, amount: 100, key: sword-1}", "expect": "expect: {unfinished: 0}",
    ]

    static let buyKeys = ["product", "quantity", "user", "as", "ask-to-buy", "fail", "interrupted"]
    static let outcomeKeys = ["ask-to-buy", "fail", "interrupted"]
    static let crashKeys = ["before", "after"]
    static let restoreKeys = ["user", "select"]
    static let refundKeys = ["purchase", "reason"]
    static let faultKeys = ["error", "at"]
    static let spendKeys = ["balance", "amount", "key", "crash"]

    /// The action an item describes; nil (reported) when it cannot be told.
    ///
    /// An action read in part (a buy whose quantity is wrong, an expect with
    /// one bad key) is returned with what could be read, for checking against
    /// the catalog in the same run; the errors counted in `context` keep the
    /// scenario from running.
    static func decode(_ item: YAMLNode, context: inout YAMLDecodingContext) -> ScenarioAction? {
        switch item.kind {
        case .scalar: return word(item, context: &context)
        case .sequence:
            context.error(ScenarioRuleID.type, "a step is an action such as `launch` or `buy: PRODUCT`, not a list; put each action in its own item ('- ')", at: item)
            return nil
        case .mapping: return mapping(item, context: &context)
        }
    }

    // MARK: Forms

    /// A bare word: `launch`, `quit`, `refresh-receipt`.
    private static func word(_ item: YAMLNode, context: inout YAMLDecodingContext) -> ScenarioAction? {
        if context.isPlaceholder(item) { return nil }
        guard let text = item.text, !item.isNull else {
            context.error(ScenarioRuleID.type, "this step is empty; write an action such as `launch` or `buy: PRODUCT`", at: item)
            return nil
        }
        if let action = bare[text] { return action }
        if let example = examples[text] {
            context.error(ScenarioRuleID.missing, "'\(text)' needs an argument; write `\(example)`", at: item)
            return nil
        }
        // `buy:com.example.pro` (no space after the colon) is one word to YAML.
        if let colon = text.firstIndex(of: ":"), names.contains(String(text[..<colon])) {
            let name = text[..<colon], argument = text[text.index(after: colon)...]
            context.error(ScenarioRuleID.type, "'\(text)' is read as one word; put a space after the colon: `\(name): \(argument)`", at: item)
            return nil
        }
        unknownAction(text, at: item, context: &context)
        return nil
    }

    /// A mapping with one key: the action, and its argument.
    private static func mapping(_ item: YAMLNode, context: inout YAMLDecodingContext) -> ScenarioAction? {
        let pairs = item.pairs
        guard let first = pairs.first else {
            context.error(ScenarioRuleID.type, "this step is an empty mapping; write an action such as `launch` or `buy: PRODUCT`", at: item)
            return nil
        }
        let name = first.key.text ?? ""
        // An `as` written beside the buy instead of inside it still names the purchase, for checking references to it.
        var misplacedName: Located<String>?
        for extra in pairs.dropFirst() {
            let key = extra.key.text ?? ""
            if names.contains(key) {
                context.error(ScenarioRuleID.type, "a step holds one action, and this one also has '\(key)'; put '\(key)' in its own item ('- \(key)')", at: extra.key)
            } else if name == "buy", buyKeys.contains(key) {
                if key == "as" { misplacedName = writtenText(extra.value) }
                context.error(ScenarioRuleID.type, "'\(key)' belongs inside the buy: write `buy: {product: PRODUCT, \(key): ...}`, or indent it under `buy:` with the product as `product:`", at: extra.key)
            } else {
                context.error(ScenarioRuleID.type, "a step holds one action, and '\(key)' is a second key of this one; remove it, or indent it under '\(name)' if it belongs to it", at: extra.key)
            }
        }
        let value = first.value
        let action: ScenarioAction?
        switch name {
        case "launch":
            action = context.name(value, "the device of `launch`", example: "tablet").map { .launch(device: $0.value) }
        case "crash":
            action = crash(value, context: &context).map { .crash($0) }
        case "buy":
            action = purchase(value, context: &context).map { purchase in
                var named = purchase
                named.name = named.name ?? misplacedName
                return .buy(named)
            }
        case "approve":
            action = reference(value, "approve", context: &context).map { .approve($0) }
        case "decline":
            action = reference(value, "decline", context: &context).map { .decline($0) }
        case "resolve":
            action = reference(value, "resolve", context: &context).map { .resolve($0) }
        case "restore":
            action = restore(value, context: &context).map { .restore($0) }
        case "advance":
            action = advance(value, context: &context).map { .advance($0) }
        case "cancel-renewal":
            action = context.productID(value, "the product of `cancel-renewal`").map { .cancelRenewal(product: $0) }
        case "refund":
            action = refund(value, context: &context)
        case "fail-downloads":
            action = fault(value, context: &context).map { .failDownloads($0) }
        case "spend":
            action = spend(value, context: &context).map { .spend($0) }
        case "expect":
            action = ExpectationDecoder.decode(value, context: &context).map { .expect($0) }
        default:
            if bare[name] != nil {
                context.error(ScenarioRuleID.type, "'\(name)' takes no argument; write `- \(name)`", at: value.isNull ? first.key : value)
            } else {
                unknownAction(name, at: first.key, context: &context)
            }
            return nil
        }
        return action
    }

    /// The text of a scalar as written, unchecked: what a name that is not
    /// valid still refers to.
    static func writtenText(_ node: YAMLNode) -> Located<String>? {
        guard node.kind == .scalar, !node.isNull, !node.isPlaceholder, let text = node.text, !text.isEmpty else { return nil }
        return Located(text, at: node.range)
    }

    private static func unknownAction(_ text: String, at node: YAMLNode, context: inout YAMLDecodingContext) {
        var message = "'\(text)' is not an action"
        let word = String(text.prefix { $0 != " " })
        if let nearest = Suggestion.nearest(to: word, in: names) {
            message += "; did you mean '\(nearest)'?"
        } else {
            message += "; the actions are \(names.joined(separator: ", "))"
        }
        context.error(ScenarioRuleID.unknownAction, message, at: node)
    }

    // MARK: Arguments

    /// `crash: {before: STEP}` or `crash: {after: finish}`.
    private static func crash(_ node: YAMLNode, context: inout YAMLDecodingContext) -> CrashPoint? {
        if node.kind == .scalar, !node.isNull, let text = node.text, !context.isPlaceholder(node) {
            context.error(ScenarioRuleID.type, "`crash` takes a mapping, `crash: {before: \(text)}` (or `after: finish`), or nothing for a crash now", at: node)
            return nil
        }
        guard context.expectMapping(node, "the argument of `crash`", example: "{before: finish}") else { return nil }
        let fields = context.fields(of: node, in: "a crash", known: crashKeys)
        let before = fields["before"], after = fields["after"]
        if let before, let after {
            let (first, second) = before.key.location < after.key.location ? (before, after) : (after, before)
            context.error(ScenarioRuleID.conflict, "a crash is armed either before a step or after finish, not both; remove '\(second.key.text ?? "")'", at: second.key,
                          notes: [Diagnostic.Note("'\(first.key.text ?? "")' is given here", at: first.key.location)])
            return nil
        }
        if let before {
            guard let step = stepName(before.value, context: &context) else { return nil }
            return CrashPoint(.before, step: step)
        }
        if let after {
            guard let step = stepName(after.value, context: &context) else { return nil }
            guard step.value == "finish" else {
                context.error(ScenarioRuleID.value, "a crash comes after `finish` only (`after: finish`: the store finished the transaction, the journal has not noted it); to crash when a plan reaches '\(step.value)', write `before: \(step.value)`", at: after.value)
                return nil
            }
            return CrashPoint(.after, step: step)
        }
        context.missing(in: node, message: "`crash` needs `before: STEP` (the app dies when a plan reaches STEP) or `after: finish`", unlessMisspelt: crashKeys)
        return nil
    }

    private static func stepName(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<String>? {
        context.string(node, "the step of a crash", example: "finish", nonEmpty: true)
    }

    /// `buy: PRODUCT` or `buy: {product, quantity, user, as, ask-to-buy | fail | interrupted}`.
    private static func purchase(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Purchase? {
        if node.kind == .scalar {
            guard let product = context.productID(node, "the product of `buy`") else { return nil }
            return Purchase(product: product, quantity: Located(1, at: node.range))
        }
        guard context.expectMapping(node, "the argument of `buy`", example: "{product: com.example.product, quantity: 2}") else { return nil }
        let fields = context.fields(of: node, in: "a buy", known: buyKeys)
        var product: Located<String>?
        if let pair = fields["product"] {
            product = context.productID(pair.value, "the product of a buy")
        } else {
            context.missing("product", in: node, of: "this buy", example: "com.example.product")
        }
        var quantity = Located(1, at: node.range)
        if let pair = fields["quantity"], let value = context.integer(pair.value, "'quantity'", in: 1...Int(Int64.max)) {
            quantity = value
        }
        let user = fields["user"].flatMap { context.string($0.value, "'user'", example: "kid-account", nonEmpty: true) }
        // A name that is not valid is reported, and still names the purchase for checking the references to it.
        let name = fields["as"].flatMap { context.name($0.value, "the name given with 'as'", example: "coins") ?? writtenText($0.value) }

        // At most one outcome, in the order written.
        let outcomes = node.pairs.filter { pair in outcomeKeys.contains(pair.key.text ?? "") }
        for extra in outcomes.dropFirst() {
            let firstKey = outcomes[0].key
            context.error(ScenarioRuleID.conflict, "a buy has at most one outcome, and this one already has '\(firstKey.text ?? "")'; keep one of ask-to-buy, fail, interrupted", at: extra.key,
                          notes: [Diagnostic.Note("'\(firstKey.text ?? "")' is given here", at: firstKey.location)])
        }
        var outcome = Purchase.Outcome.succeed
        if let pair = fields["ask-to-buy"], let flag = context.bool(pair.value, "'ask-to-buy'"), flag.value { outcome = .askToBuy }
        if let pair = fields["interrupted"], let flag = context.bool(pair.value, "'interrupted'"), flag.value { outcome = .interrupted }
        if let pair = fields["fail"], let code = context.choice(pair.value, "store error for 'fail'", among: StoreErrorCode.allCases) {
            outcome = .fail(code.value)
        }
        guard let product else { return nil }
        return Purchase(product: product, quantity: quantity, user: user?.value, name: name, outcome: outcome)
    }

    /// A purchase named by `approve`, `decline`, `resolve`: an `as` name or a product id.
    private static func reference(_ node: YAMLNode, _ action: String, context: inout YAMLDecodingContext) -> Reference? {
        context.string(node, "the purchase of `\(action)`", example: "an `as` name or a product id", nonEmpty: true)
    }

    /// `restore: {user: NAME, select: [PRODUCT, ...]}`.
    private static func restore(_ node: YAMLNode, context: inout YAMLDecodingContext) -> RestoreRequest? {
        guard context.expectMapping(node, "the argument of `restore`", example: "{user: NAME, select: [PRODUCT]}") else { return nil }
        let fields = context.fields(of: node, in: "a restore", known: restoreKeys)
        let user = fields["user"].flatMap { context.string($0.value, "'user'", example: "player-8f14e45f", nonEmpty: true) }
        let selection = fields["select"].flatMap { pair in
            context.uniqueList(pair.value, "'select'", example: "com.example.product") { context, item in
                context.productID(item, "an entry of 'select'")
            }
        }
        return RestoreRequest(user: user?.value, selection: selection)
    }

    /// `advance: P1M` or `advance: 36h`.
    private static func advance(_ node: YAMLNode, context: inout YAMLDecodingContext) -> ScenarioDuration? {
        guard let text = context.text(node, "the duration of `advance`", example: "P1M or 36h") else { return nil }
        switch ScenarioDurationParser.parse(text) {
        case .success(let duration):
            return duration
        case .failure(.zero):
            context.error(ScenarioRuleID.value, "'\(text)' adds up to no time; `advance` moves the clock forward by more than zero", at: node)
        case .failure(.tooLarge):
            context.error(ScenarioRuleID.limit, "'\(text)' has a number of more than 9 digits; `advance` is at most 100 years in all", at: node)
        case .failure(.malformed(let why)):
            let reason = why.isEmpty ? "" : " (\(why))"
            context.error(ScenarioRuleID.value, "'\(text)' is not a duration\(reason); write \(ScenarioDurationParser.forms)", at: node)
        }
        return nil
    }

    /// `refund: NAME` or `refund: {purchase: NAME, reason: refund | family-sharing}`.
    private static func refund(_ node: YAMLNode, context: inout YAMLDecodingContext) -> ScenarioAction? {
        if node.kind == .scalar {
            return reference(node, "refund", context: &context).map { .refund($0, reason: .refund) }
        }
        guard context.expectMapping(node, "the argument of `refund`", example: "{purchase: NAME, reason: family-sharing}") else { return nil }
        let fields = context.fields(of: node, in: "a refund", known: refundKeys)
        var purchase: Reference?
        if let pair = fields["purchase"] {
            purchase = reference(pair.value, "refund", context: &context)
        } else {
            context.missing("purchase", in: node, of: "this refund", example: "NAME")
        }
        var reason = RevocationReason.refund
        if let pair = fields["reason"], let value = context.choice(pair.value, "reason for a refund", among: [RevocationReason.refund, .familySharing]) {
            reason = value.value
        }
        guard let purchase else { return nil }
        return .refund(purchase, reason: reason)
    }

    /// `spend: {balance: NAME, amount: 1..., key: TEXT, crash: journalled | sent}`.
    private static func spend(_ node: YAMLNode, context: inout YAMLDecodingContext) -> SpendRequest? {
        let example = "{balance: coins, amount: 100, key: sword-1}"
        guard context.expectMapping(node, "the argument of `spend`", example: example) else { return nil }
        let fields = context.fields(of: node, in: "a spend", known: spendKeys)
        var balance: Located<String>?
        var amount: Located<Int>?
        var key: Located<String>?
        var crash: Located<SpendRequest.Crash>?
        if let pair = fields["balance"] {
            balance = context.string(pair.value, "the balance of `spend`", example: "coins", nonEmpty: true)
        } else {
            context.missing("balance", in: node, of: "`spend`", example: "coins")
        }
        if let pair = fields["amount"] {
            amount = context.integer(pair.value, "the amount of `spend`", in: 1...Int(Int32.max))
        } else {
            context.missing("amount", in: node, of: "`spend`", example: "100")
        }
        if let pair = fields["key"] {
            key = context.string(pair.value, "the key of `spend`", example: "sword-1", nonEmpty: true)
            if let text = key?.value, text.isEmpty || text.utf8.count > 256 {
                context.error(ScenarioRuleID.value, "a spend key is 1 to 256 bytes of text; '\(text.prefix(40))' is not", at: pair.value)
                key = nil
            }
        } else {
            context.missing("key", in: node, of: "`spend`", example: "sword-1")
        }
        if let pair = fields["crash"] {
            crash = context.choice(pair.value, "moment of a spend's crash", among: SpendRequest.Crash.allCases)
        }
        guard let balance, let amount, let key else { return nil }
        return SpendRequest(balance: balance, amount: amount, key: key, crash: crash)
    }

    /// `fail-downloads: {error: out-of-space | network-error, at: 0...99}`.
    private static func fault(_ node: YAMLNode, context: inout YAMLDecodingContext) -> DownloadFault? {
        guard context.expectMapping(node, "the argument of `fail-downloads`", example: "{error: out-of-space, at: 40}") else { return nil }
        let fields = context.fields(of: node, in: "fail-downloads", known: faultKeys)
        var kind: DownloadFault.Kind?
        var percent: Int?
        if let pair = fields["error"] {
            kind = context.choice(pair.value, "download error", among: [DownloadFault.Kind.outOfSpace, .networkError])?.value
        } else {
            context.missing("error", in: node, of: "`fail-downloads`", example: "out-of-space")
        }
        if let pair = fields["at"] {
            percent = context.integer(pair.value, "the percentage 'at'", in: 0...99)?.value
        } else {
            context.missing("at", in: node, of: "`fail-downloads`", example: "40")
        }
        guard let kind, let percent else { return nil }
        return DownloadFault(kind, at: percent)
    }
}
