import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML

/// What a subscription offer costs and for how long, decoded and checked:
/// what an introductory offer and every other offer have in common.
struct OfferTerms {
    var mode: Located<OfferMode>
    var period: Located<ISOPeriod>
    var periods: Located<Int>?
    var price: Located<Price>?
}

/// Decodes `introductory-offer` and the entries of `offers`. Both read their
/// terms (`mode`, `period`, `periods`, `price`) through ``decodeTerms``, so
/// that every offer is held to the same rules.
enum OfferDecoder {
    enum TermKey: String, CaseIterable, Sendable { case mode, period, periods, price }
    enum OfferKey: String, CaseIterable, Sendable {
        case id, kind, referenceName = "reference-name", mode, period, periods, price
    }
    static let termKeys = YAMLKeyTable<TermKey>()
    static let offerKeys = YAMLKeyTable<OfferKey>()

    static let freeTrialPeriods: Set<String> = ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"]
    static let payUpFrontPeriods: Set<String> = ["P1M", "P2M", "P3M", "P6M", "P1Y"]
    /// The allowed periods, shortest first, as App Store Connect lists them.
    static let periodOrder = ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"]

    /// "one of P3D, P1W, …, not P7D", with the allowed spelling of the same
    /// length when there is one (`P7D` is `P1W`, `P12M` is `P1Y`): StoreKit
    /// configuration files and other tools write days and months that way.
    static func periodMessage(_ what: String, allowed: Set<String>, found period: ISOPeriod) -> String {
        let list = periodOrder.filter(allowed.contains).joined(separator: ", ")
        let days = period.years == 0 && period.months == 0 ? period.weeks * 7 + period.days : nil
        let months = period.weeks == 0 && period.days == 0 ? period.years * 12 + period.months : nil
        var same: String?
        if let days, days > 0 {
            same = days == 3 ? "P3D" : days % 7 == 0 ? "P\(days / 7)W" : nil
        } else if let months, months > 0 {
            same = months % 12 == 0 ? "P\(months / 12)Y" : "P\(months)M"
        }
        let hint = same.flatMap { allowed.contains($0) && $0 != period.description ? "; \(period) is \($0), write that" : nil } ?? ""
        return "\(what) lasts one of \(list), not \(period)\(hint)"
    }

    /// The subscription an offer belongs to: its period and price, which the
    /// offer's terms are checked against (nil when they did not decode).
    struct Regular {
        var period: Located<SubscriptionPeriod>?
        var price: Located<Price>?
    }

    /// The term keys of an offer mapping, as written.
    struct TermFields {
        var mode, period, periods, price: YAMLNode.Pair?

        mutating func take(_ key: TermKey, _ pair: YAMLNode.Pair) {
            switch key {
            case .mode: mode = pair
            case .period: period = pair
            case .periods: periods = pair
            case .price: price = pair
            }
        }
    }

    /// An `introductory-offer` mapping, or nil when it has an error (reported).
    static func decodeIntroductory(_ node: YAMLNode, regular: Regular, context: inout YAMLDecodingContext) -> IntroductoryOffer? {
        guard context.expectMapping(node, "'introductory-offer'") else { return nil }
        var fields = TermFields()
        for pair in node.pairs {
            if let key = pair.key.key(in: termKeys) {
                fields.take(key, pair)
            } else {
                context.unknownKey(pair.key, value: pair.value, in: "'introductory-offer'", known: termKeys.names)
            }
        }
        guard let terms = decodeTerms(fields, of: node, named: "'introductory-offer'", pricedAs: "the introductory price", regular: regular, context: &context)
        else { return nil }
        return IntroductoryOffer(mode: terms.mode, period: terms.period, periods: terms.periods, price: terms.price, location: node.location)
    }

    /// An `offers` list, or nil when any entry has an error (reported). Ids
    /// are checked for uniqueness even in entries with other errors.
    static func decodeOffers(_ node: YAMLNode, regular: Regular, context: inout YAMLDecodingContext) -> [SubscriptionOffer]? {
        guard context.expectSequence(node, "'offers'") else { return nil }
        var offers: [SubscriptionOffer] = []
        var first: [String: Located<String>] = [:]
        var ok = true
        for item in node.items {
            let decoded = decodeOffer(item, regular: regular, context: &context)
            if let id = decoded.id {
                if let earlier = first[id.value] {
                    context.error(
                        CatalogRuleID.duplicateID, "the offer id '\(id.value)' is already used by this subscription; every offer needs its own id",
                        at: id, notes: [Diagnostic.Note("first used here", at: earlier.location)])
                    ok = false
                } else {
                    first[id.value] = id
                }
            }
            guard let offer = decoded.offer else {
                ok = false
                continue
            }
            offers.append(offer)
        }
        return ok ? offers : nil
    }

    /// One entry of `offers`: the offer when it is valid, and its id in any case.
    private static func decodeOffer(
        _ node: YAMLNode, regular: Regular, context: inout YAMLDecodingContext
    ) -> (offer: SubscriptionOffer?, id: Located<String>?) {
        guard context.expectMapping(node, "an offer") else { return (nil, nil) }
        var fields = TermFields()
        var idField, kindField, nameField: YAMLNode.Pair?
        for pair in node.pairs {
            switch pair.key.key(in: offerKeys) {
            case .id?: idField = pair
            case .kind?: kindField = pair
            case .referenceName?: nameField = pair
            case .mode?: fields.take(.mode, pair)
            case .period?: fields.take(.period, pair)
            case .periods?: fields.take(.periods, pair)
            case .price?: fields.take(.price, pair)
            case nil: context.unknownKey(pair.key, value: pair.value, in: "an offer", known: offerKeys.names)
            }
        }
        var id: Located<String>?
        if let idField {
            id = decodeOfferID(idField.value, context: &context)
        } else {
            context.missing("id", in: node, of: "an offer", example: "com.example.app.pro.winback")
        }
        let place = id.map { "the offer '\($0.value)'" } ?? "an offer"
        var kind: Located<OfferKind>?
        if let kindField {
            kind = context.enumeration(kindField.value, "offer kind")
        } else {
            context.missing("kind", in: node, of: place, example: "promotional")
        }
        var name: Located<String>?
        if let nameField {
            name = ProductDecoder.decodeReferenceName(nameField.value, context: &context)
        } else {
            context.missing("reference-name", in: node, of: place, example: "Spring Promotion")
        }
        let pricedAs = "the price of \(kind.map { "\($0.value.rawValue) offer" } ?? "offer") '\(id?.value ?? "")'"
        let terms = decodeTerms(fields, of: node, named: place, pricedAs: pricedAs, regular: regular, context: &context)
        guard let id, let kind, let name, let terms else { return (nil, id) }
        let offer = SubscriptionOffer(
            id: id, kind: kind, referenceName: name, mode: terms.mode, period: terms.period, periods: terms.periods,
            price: terms.price, location: node.location)
        return (offer, id)
    }

    /// An offer id: the characters and length of a product id.
    private static func decodeOfferID(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<String>? {
        guard let id = context.string(node, "an offer 'id'", example: "com.example.app.pro.winback") else { return nil }
        if let problem = NamePatterns.productID(id.value) {
            context.error(CatalogRuleID.invalidName, "the offer id '\(id.value)' \(problem)", at: node)
            return nil
        }
        return id
    }

    /// Decodes and checks an offer's terms: the periods each mode allows, the
    /// keys each mode takes, and a price below the subscription's.
    ///
    /// - Parameters:
    ///   - named: The offer as messages name it (`'introductory-offer'`, `the offer 'x'`).
    ///   - pricedAs: Its price as messages name it (`the introductory price`).
    static func decodeTerms(
        _ fields: TermFields, of node: YAMLNode, named place: String, pricedAs: String, regular: Regular,
        context: inout YAMLDecodingContext
    ) -> OfferTerms? {
        var ok = true
        let mode: Located<OfferMode>? = fields.mode.flatMap { context.enumeration($0.value, "offer mode") }
        let period = fields.period.flatMap { ProductDecoder.decodePeriod($0.value, "the offer's 'period'", context: &context) }
        var periods: Located<Int>?
        if let field = fields.periods {
            periods = context.integer(field.value, "'periods'", in: 1...12)
            if periods == nil { ok = false }
        }
        var price: Located<Price>?
        if let field = fields.price {
            price = ProductDecoder.decodePrice(field.value, context: &context)
            if price == nil { ok = false }
        }
        if fields.mode == nil { context.missing("mode", in: node, of: place, example: "free-trial") }
        if fields.period == nil { context.missing("period", in: node, of: place, example: "P1W") }
        guard let mode, let period else { return nil }
        // A price is compared over a period only once the period is right: one mistake, one message.
        var periodOK = true
        switch mode.value {
        case .freeTrial:
            if !freeTrialPeriods.contains(period.value.description) {
                context.error(CatalogRuleID.invalidPeriod, periodMessage("a free trial", allowed: freeTrialPeriods, found: period.value), at: period)
                ok = false
                periodOK = false
            }
            for key in [fields.periods?.key, fields.price?.key].compactMap({ $0 }) {
                context.error(CatalogRuleID.notApplicable, "a free trial has no '\(key.text ?? "")'; remove it", at: key)
                ok = false
            }
        case .payUpFront:
            if !payUpFrontPeriods.contains(period.value.description) {
                context.error(CatalogRuleID.invalidPeriod, periodMessage("a pay-up-front offer", allowed: payUpFrontPeriods, found: period.value), at: period)
                ok = false
                periodOK = false
            }
            if let key = fields.periods?.key {
                context.error(CatalogRuleID.notApplicable, "'periods' applies to pay-as-you-go offers; a pay-up-front offer is one payment for its period", at: key)
                ok = false
            }
        case .payAsYouGo:
            if let subscriptionPeriod = regular.period, period.value.description != subscriptionPeriod.value.rawValue {
                context.error(
                    CatalogRuleID.invalidPeriod,
                    "a pay-as-you-go offer bills every period of the subscription, \(subscriptionPeriod.value.rawValue), not \(period.value)",
                    at: period, notes: [Diagnostic.Note("the subscription's period is here", at: subscriptionPeriod.location)])
                ok = false
                periodOK = false
            }
        }
        if mode.value != .freeTrial, fields.price == nil {
            context.missing("price", in: node, of: "a \(mode.value.rawValue) offer", example: "\"0.99\"")
            ok = false
        }
        if let price, periodOK {
            checkPrice(price, mode: mode.value, period: period.value, pricedAs: pricedAs, regular: regular, context: &context)
        }
        guard ok else { return nil }
        return OfferTerms(mode: mode, period: period, periods: periods, price: price)
    }

    /// Warns when an offer costs no less than the subscription would over the
    /// same time: a pay-as-you-go price against the price of one period, a
    /// pay-up-front price against the price of the periods its length holds.
    /// A warning, not an error: the catalog still holds the offer as written
    /// (StoreKit test configurations often have such offers).
    private static func checkPrice(
        _ offerPrice: Located<Price>, mode: OfferMode, period: ISOPeriod, pricedAs: String, regular: Regular,
        context: inout YAMLDecodingContext
    ) {
        guard let price = regular.price else { return }
        let message: String
        switch mode {
        case .freeTrial:
            return
        case .payAsYouGo:
            guard offerPrice.value >= price.value else { return }
            message = "\(pricedAs), \(offerPrice.value) every \(period), is not lower than the subscription's price (\(price.value)); an offer is meant to cost less than the regular price"
        case .payUpFront:
            guard let subscriptionPeriod = regular.period, let offerLength = length(of: period) else { return }
            let periodLength = length(of: subscriptionPeriod.value)
            // offer / offerLength >= price / periodLength, in whole numbers.
            guard offerPrice.value.cents * periodLength >= price.value.cents * offerLength else { return }
            message = "\(pricedAs), \(offerPrice.value) for \(period), is not lower than the subscription's price over the same time (\(price.value) every \(subscriptionPeriod.value.rawValue)); an offer is meant to cost less than the regular price"
        }
        context.diagnostics.append(Diagnostic(
            .warning, rule: CatalogRuleID.offerPrice, message, at: offerPrice.range,
            notes: [Diagnostic.Note("the subscription's price is here", at: price.location)]))
    }

    /// A length in 156ths of a year, so that weeks (52 a year) and months (12)
    /// compare in whole numbers; nil for a period with days.
    private static func length(of period: ISOPeriod) -> Int? {
        guard period.days == 0 else { return nil }
        return period.years * 156 + period.months * 13 + period.weeks * 3
    }

    private static func length(of period: SubscriptionPeriod) -> Int {
        switch period {
        case .oneWeek: 3
        case .oneMonth: 13
        case .twoMonths: 26
        case .threeMonths: 39
        case .sixMonths: 78
        case .oneYear: 156
        }
    }
}
