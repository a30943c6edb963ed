import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics

/// Reads a StoreKit configuration file into a located ``StoreKitConfiguration``.
///
/// Every problem is a diagnostic at the file, line and column of the key or
/// value concerned: errors for what cannot be read (not JSON, a version it
/// does not read, a missing or mistyped key), warnings for keys it does not
/// know, and notes for known keys the catalog has no place for. Nothing in
/// the file goes unmentioned: a key is read into the model, or reported.
public struct StoreKitReader: Sendable {
    /// The JSON layer.
    public var json: StoreKitJSONReader

    /// Creates a reader.
    public init(json: StoreKitJSONReader = StoreKitJSONReader()) {
        self.json = json
    }

    /// What reading found.
    public struct Result: Sendable {
        /// The configuration, when its JSON and its version could be read.
        public var configuration: StoreKitConfiguration?
        /// Every problem, and every key left out of the catalog.
        public var diagnostics: [Diagnostic]

        /// Whether any diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Reads a file's bytes.
    public func read(_ bytes: [UInt8], file: String) -> Result {
        do {
            return read(try json.read(bytes, file: file), file: file)
        } catch {
            return Result(configuration: nil, diagnostics: [error.diagnostic])
        }
    }

    /// Reads a parsed file.
    public func read(_ root: StoreKitNode, file: String) -> Result {
        var context = ReadingContext()
        guard var fields = ObjectFields(root, path: "", what: "a StoreKit configuration", context: &context) else {
            return Result(configuration: nil, diagnostics: context.allDiagnostics(file: file))
        }
        let version = readVersion(&fields, context: &context)
        var products: [StoreKitProduct] = []
        for list in ["products", "nonRenewingSubscriptions"] {
            guard let array = fields.array(list, context: &context) else { continue }
            let allowed: [StoreKitProductType] = list == "products" ? [.consumable, .nonConsumable] : [.nonRenewingSubscription]
            for (index, element) in array.elements.enumerated() {
                if let product = readProduct(element, path: "\(list)[\(index)]", list: list, allowed: allowed, group: nil, context: &context) {
                    products.append(product)
                }
            }
        }
        var groups: [StoreKitGroup] = []
        if let array = fields.array("subscriptionGroups", context: &context) {
            for (index, element) in array.elements.enumerated() {
                if let group = readGroup(element, path: "subscriptionGroups[\(index)]", context: &context) { groups.append(group) }
            }
        }
        fields.finish(kept: StoreKitKeys.rootKept, known: StoreKitKeys.rootCarried, context: &context)
        let configuration = version.map { StoreKitConfiguration(file: file, version: $0, products: products, groups: groups, root: root) }
        return Result(configuration: configuration, diagnostics: context.allDiagnostics(file: file))
    }

    private func readVersion(_ root: inout ObjectFields, context: inout ReadingContext) -> Located<StoreKitVersion>? {
        let supported = StoreKitVersion.supported.map(\.description).joined(separator: ", ")
        guard let member = root.member("version") else {
            context.error(
                StoreKitRuleID.missingKey,
                "the file has no `version`; Xcode writes one in every StoreKit configuration file (this reader reads \(supported))",
                at: SourceRange(start: root.node.location))
            return nil
        }
        guard var fields = ObjectFields(member.value, path: "version", what: "a version", context: &context) else { return nil }
        let major = fields.integer("major", example: "4", context: &context)
        let minor = fields.integer("minor", example: "0", context: &context)
        fields.finish(kept: [:], known: StoreKitKeys.versionCarried, context: &context)
        guard let major, let minor else { return nil }
        let version = StoreKitVersion(major.value, minor.value)
        guard StoreKitVersion.supported.contains(version) else {
            context.error(
                StoreKitRuleID.version, "StoreKit configuration version \(version) is not one this reader reads; it reads \(supported)",
                at: member.value.range)
            return nil
        }
        return Located(version, at: member.value.range)
    }

    private func readProduct(
        _ node: StoreKitNode, path: String, list: String, allowed: [StoreKitProductType], group: Located<String>?,
        context: inout ReadingContext
    ) -> StoreKitProduct? {
        guard var fields = ObjectFields(node, path: path, what: "a product", context: &context) else { return nil }
        let productID = fields.string("productID", example: "\"com.example.app.coins\"", context: &context)
        let referenceName = fields.string("referenceName", example: "\"Coins\"", context: &context)
        let type = fields.enumeration("type", as: StoreKitProductType.self, named: "product type", context: &context)
        let displayPrice = fields.string("displayPrice", example: "\"0.99\"", context: &context)
        if let type, !allowed.contains(type.value) {
            context.error(
                StoreKitRuleID.invalidValue,
                "`\(path)` is a \(type.value.rawValue), which Xcode lists under `\(type.value.list)`\(type.value == .recurringSubscription ? " of a subscription group" : ""), not under `\(list)`",
                at: type.range)
        }
        var familyShareable: Located<Bool>?
        if let type, [.consumable, .nonRenewingSubscription].contains(type.value), let member = fields.member("familyShareable") {
            // Only a `true` loses something the author meant.
            let isTrue: Bool
            if case .bool(true) = member.value.content { isTrue = true } else { isTrue = false }
            context.notImported.add(path: "\(path).familyShareable", range: member.keyRange, reason: StoreKitKeys.familySharing, severity: isTrue ? .warning : .note)
        } else {
            familyShareable = fields.bool("familyShareable", context: &context)
        }
        let localizationsKey = fields.member("localizations")?.keyRange ?? SourceRange(start: node.location)
        var localizations: [StoreKitLocalization] = []
        if let array = fields.array("localizations", required: true, context: &context) {
            for (index, element) in array.elements.enumerated() {
                if let localization = readLocalization(element, path: "\(path).localizations[\(index)]", forGroup: false, context: &context) {
                    localizations.append(localization)
                }
            }
        }
        var subscription: StoreKitSubscriptionTerms?
        let isSubscription = type?.value == .recurringSubscription && allowed == [.recurringSubscription]
        if isSubscription {
            subscription = readSubscriptionTerms(&fields, path: path, group: group, context: &context)
        }
        fields.finish(
            kept: isSubscription ? StoreKitKeys.subscriptionKept : StoreKitKeys.productKept,
            known: isSubscription ? StoreKitKeys.subscriptionCarried : StoreKitKeys.productCarried, context: &context)
        guard let productID, let referenceName, let type, allowed.contains(type.value), let displayPrice, !isSubscription || subscription != nil
        else { return nil }
        return StoreKitProduct(
            type: type, productID: productID, referenceName: referenceName, displayPrice: displayPrice, familyShareable: familyShareable,
            localizations: localizations, localizationsKey: localizationsKey, subscription: subscription, range: node.range, path: path)
    }

    private func readSubscriptionTerms(
        _ fields: inout ObjectFields, path: String, group: Located<String>?, context: inout ReadingContext
    ) -> StoreKitSubscriptionTerms? {
        let groupNumber = fields.integer("groupNumber", example: "1", context: &context)
        let period = fields.string("recurringSubscriptionPeriod", example: "\"P1M\"", context: &context)
        if let groupID = fields.string("subscriptionGroupID", required: false, example: "\"D0FEE8D8\"", context: &context),
           let group, groupID.value != group.value {
            context.report(
                .warning, StoreKitRuleID.groupMismatch,
                "`\(path).subscriptionGroupID` is '\(groupID.value)', but the subscription is listed in the group whose id is '\(group.value)'; it is imported into the group that lists it",
                at: groupID.range, notes: [Diagnostic.Note("that group's id is here", at: group.location)])
        }
        var ok = true
        var introductory: StoreKitOffer?
        let listed = fields.array("introductoryOffers", context: &context)
        fields.skip("introductoryOffers")
        if let member = fields.member("introductoryOffer") {
            if case .null = member.value.content {
                introductory = nil
            } else if let offer = readOffer(member.value, kind: .introductory, path: "\(path).introductoryOffer", context: &context) {
                introductory = offer
            } else {
                ok = false
            }
        } else if let first = listed?.elements.first {
            // 5.0 leaves `introductoryOffer` out when there is none; a file with only the list gives its first.
            introductory = readOffer(first, kind: .introductory, path: "\(path).introductoryOffers[0]", context: &context)
            if introductory == nil { ok = false }
        }
        if let listed, let member = listed.member {
            context.notImported.add(path: "\(path).introductoryOffers", range: member.keyRange, reason: StoreKitKeys.subscriptionKept["introductoryOffers"] ?? "")
            for (index, element) in listed.elements.enumerated() where !Self.isSameOffer(element, as: fields.node["introductoryOffer"]?.value) {
                if index == 0, fields.node["introductoryOffer"] == nil { continue }
                let plan = element["billingPlanType"]?.value.value.string.map { " (billing plan \($0))" } ?? ""
                context.notImported.add(
                    path: "\(path).introductoryOffers[\(index)]", range: element.range,
                    reason: "another introductory offer\(plan): the catalog holds one introductory offer per subscription")
            }
        }
        var offers: [StoreKitOffer] = []
        for kind in StoreKitOfferKind.lists {
            guard let array = fields.array(kind.rawValue, context: &context) else {
                ok = false
                continue
            }
            for (index, element) in array.elements.enumerated() {
                if let offer = readOffer(element, kind: kind, path: "\(path).\(kind.rawValue)[\(index)]", context: &context) {
                    offers.append(offer)
                } else {
                    ok = false
                }
            }
        }
        guard ok, let groupNumber, let period else { return nil }
        return StoreKitSubscriptionTerms(groupNumber: groupNumber, period: period, introductoryOffer: introductory, offers: offers)
    }

    /// Whether an entry of `introductoryOffers` is the file's `introductoryOffer` (5.0 lists it in both).
    static func isSameOffer(_ entry: StoreKitNode, as offer: StoreKitNode?) -> Bool {
        guard let offer else { return false }
        return entry.value.sorted == offer.value.sorted
    }

    private func readOffer(_ node: StoreKitNode, kind: StoreKitOfferKind, path: String, context: inout ReadingContext) -> StoreKitOffer? {
        let isIntroductory = kind == .introductory
        guard var fields = ObjectFields(node, path: path, what: isIntroductory ? "an introductory offer" : "an offer", context: &context) else { return nil }
        var offerID, referenceName: Located<String>?
        if !isIntroductory {
            offerID = fields.string("offerID", example: "\"com.example.app.pro.promo\"", context: &context)
            referenceName = fields.string("referenceName", example: "\"Spring Promotion\"", context: &context)
        }
        let mode = fields.enumeration("paymentMode", as: StoreKitPaymentMode.self, named: "payment mode", context: &context)
        let period = fields.string("subscriptionPeriod", example: "\"P1W\"", context: &context)
        let count = fields.integer("numberOfPeriods", required: false, example: "1", context: &context)
        let price = fields.string("displayPrice", required: false, example: "\"0.99\"", context: &context)
        fields.finish(
            kept: isIntroductory ? StoreKitKeys.introductoryKept : StoreKitKeys.offerKept,
            known: isIntroductory ? StoreKitKeys.introductoryCarried : StoreKitKeys.offerCarried, context: &context)
        guard let mode, let period, isIntroductory || (offerID != nil && referenceName != nil) else { return nil }
        return StoreKitOffer(
            kind: kind, offerID: offerID, referenceName: referenceName, paymentMode: mode, subscriptionPeriod: period,
            numberOfPeriods: count, displayPrice: price, range: node.range, path: path)
    }

    private func readLocalization(_ node: StoreKitNode, path: String, forGroup: Bool, context: inout ReadingContext) -> StoreKitLocalization? {
        guard var fields = ObjectFields(node, path: path, what: forGroup ? "a group localization" : "a localization", context: &context) else { return nil }
        let locale = fields.string("locale", example: "\"en_US\"", context: &context)
        let displayName = fields.string("displayName", example: forGroup ? "\"Pro\"" : "\"100 Coins\"", context: &context)
        var description: Located<String>?
        if forGroup {
            if let member = fields.member("description") {
                context.notImported.add(path: "\(path).description", range: member.keyRange, reason: StoreKitKeys.groupLocalizationKept["description"] ?? "")
                if case .string(let text) = member.value.content { description = Located(text, at: member.value.range) }
            }
        } else {
            description = fields.string("description", example: "\"A bag of coins\"", context: &context)
        }
        fields.finish(
            kept: forGroup ? StoreKitKeys.groupLocalizationKept : [:],
            known: forGroup ? StoreKitKeys.groupLocalizationCarried : StoreKitKeys.localizationCarried, context: &context)
        guard let locale, let displayName else { return nil }
        guard let description = description ?? (forGroup ? Located("", at: SourceRange(start: node.location)) : nil) else { return nil }
        return StoreKitLocalization(locale: locale, displayName: displayName, description: description, range: node.range)
    }

    private func readGroup(_ node: StoreKitNode, path: String, context: inout ReadingContext) -> StoreKitGroup? {
        guard var fields = ObjectFields(node, path: path, what: "a subscription group", context: &context) else { return nil }
        let idMember = fields.node["id"]
        let id = fields.string("id", required: false, example: "\"D0FEE8D8\"", context: &context)
        if let idMember {
            context.notImported.add(path: "\(path).id", range: idMember.keyRange, reason: StoreKitKeys.groupKept["id"] ?? "")
        }
        let name = fields.string("name", example: "\"Pro\"", context: &context)
        var localizations: [StoreKitLocalization] = []
        if let array = fields.array("localizations", context: &context) {
            for (index, element) in array.elements.enumerated() {
                if let localization = readLocalization(element, path: "\(path).localizations[\(index)]", forGroup: true, context: &context) {
                    localizations.append(localization)
                }
            }
        }
        var subscriptions: [StoreKitProduct] = []
        if let array = fields.array("subscriptions", context: &context) {
            for (index, element) in array.elements.enumerated() {
                let product = readProduct(
                    element, path: "\(path).subscriptions[\(index)]", list: "subscriptions", allowed: [.recurringSubscription], group: id,
                    context: &context)
                if let product { subscriptions.append(product) }
            }
        }
        fields.finish(kept: StoreKitKeys.groupKept, known: StoreKitKeys.groupCarried, context: &context)
        guard let name else { return nil }
        return StoreKitGroup(id: id, name: name, localizations: localizations, subscriptions: subscriptions, range: node.range, path: path)
    }
}
