import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Auto-renewable subscriptions and their offers, written over the base file's entries.
extension ExportBuilder {
    mutating func mergeSubscription(_ product: Product, _ subscription: Subscription, formerPrice: Price?, into entry: inout StoreKitValue) {
        let isNew = entry["recurringSubscriptionPeriod"] == nil
        entry["groupNumber"] = .integer(subscription.effectiveLevel)
        entry["recurringSubscriptionPeriod"] = .string(subscription.period.value.rawValue)
        if let groupID = groupIDs[subscription.group.value] { entry["subscriptionGroupID"] = .string(groupID) }
        let hasBillingPlans = version >= StoreKitVersion.billingPlans

        // The introductory offer, and 5.0's list, which repeats it by billing plan.
        let baseIntroductory = entry["introductoryOffer"].flatMap { $0 == .null ? nil : $0 }
        var listed = entry["introductoryOffers"]?.elements
        let listedIndex = listed.flatMap { list in
            baseIntroductory.flatMap { offer in list.firstIndex { Self.sameOffer($0, offer) } } ?? (baseIntroductory == nil && entry["introductoryOffer"] == nil && !list.isEmpty ? 0 : nil)
        }
        var introductory: StoreKitValue?
        if let offer = subscription.introductoryOffer {
            let start = baseIntroductory ?? listedIndex.flatMap { listed?[$0] }
            introductory = mergeTerms(
                mode: offer.mode.value, period: offer.period.value, periods: offer.periods?.value, price: offer.price?.value,
                into: start, idSeed: "introductory:\(product.id.value)")
        }
        if let introductory {
            entry["introductoryOffer"] = introductory
        } else if entry["introductoryOffer"] != nil || !hasBillingPlans {
            entry["introductoryOffer"] = .null
        }
        if listed != nil || hasBillingPlans {
            var list = listed ?? []
            if let index = listedIndex {
                if let introductory { list[index] = introductory } else { list.remove(at: index) }
            } else if let introductory {
                list.insert(introductory, at: 0)
            }
            listed = list
            entry["introductoryOffers"] = .array(list)
        }
        if isNew, hasBillingPlans, entry["billingPlans"] == nil {
            entry["billingPlans"] = .array([.object([
                "billingPlanType": .string(XcodeDefaults.billedUpFront),
                "commitmentDisplayPrice": .string(product.price.value.description),
                "displayPrice": .string(product.price.value.description),
                "internalID": .string(ids.make("billing-plan", product.id.value)),
                "isEnabled": .bool(true),
            ])])
        } else if var plans = entry["billingPlans"]?.elements, let formerPrice, formerPrice != product.price.value {
            // A plan's prices that were the product's follow the product's new price; others are the plan's own.
            for index in plans.indices {
                for key in ["displayPrice", "commitmentDisplayPrice"] where plans[index][key]?.string.flatMap({ Price(parsing: $0) }) == formerPrice {
                    plans[index][key] = .string(product.price.value.description)
                }
            }
            entry["billingPlans"] = .array(plans)
        }

        // Ad hoc, code and win-back offers, by id within their list.
        for kind in StoreKitOfferKind.lists {
            let present = entry[kind.rawValue] != nil
            let supported = switch kind {
            case .code: version >= StoreKitVersion.codeOffers
            case .winBack: version >= StoreKitVersion.winBackOffers
            default: true
            }
            guard present || supported else { continue }
            entry[kind.rawValue] = .array(mergeOffers(
                subscription.offers.filter { StoreKitOfferKind($0.kind.value) == kind }, kind: kind,
                into: entry[kind.rawValue]?.elements ?? [], product: product))
        }
    }

    /// Whether two offers are the same: the same internal id, or equal throughout.
    static func sameOffer(_ lhs: StoreKitValue, _ rhs: StoreKitValue) -> Bool {
        if let left = lhs["internalID"]?.string, let right = rhs["internalID"]?.string { return left == right }
        return lhs.sorted == rhs.sorted
    }

    mutating func mergeOffers(_ offers: [SubscriptionOffer], kind: StoreKitOfferKind, into existing: [StoreKitValue], product: Product) -> [StoreKitValue] {
        var result: [StoreKitValue] = []
        var placed = Set<String>()
        for entry in existing {
            guard let id = entry["offerID"]?.string, let offer = offers.first(where: { $0.id.value == id }) else {
                if let id = entry["offerID"]?.string {
                    note("the offer \(id) of \(product.id.value) is not in the catalog, so it is not in the export", at: product.id.range)
                }
                continue
            }
            placed.insert(id)
            result.append(merge(offer, kind: kind, into: entry, product: product))
        }
        for offer in offers where !placed.contains(offer.id.value) {
            result.append(merge(offer, kind: kind, into: nil, product: product))
        }
        return result
    }

    mutating func merge(_ offer: SubscriptionOffer, kind: StoreKitOfferKind, into existing: StoreKitValue?, product: Product) -> StoreKitValue {
        var entry = mergeTerms(
            mode: offer.mode.value, period: offer.period.value, periods: offer.periods?.value, price: offer.price?.value,
            into: existing, idSeed: "offer:\(product.id.value):\(offer.id.value)")
        entry["offerID"] = .string(offer.id.value)
        entry["referenceName"] = .string(offer.referenceName.value)
        // Xcode lets a win-back offer be redeemed in tests only when it is marked eligible.
        if existing == nil, kind == .winBack { entry["isEligible"] = .bool(true) }
        return entry
    }

    /// An offer's terms written over the base entry: payment mode, period,
    /// number of periods and price, keeping the base's spelling of an equal
    /// period or price and the keys the catalog has no place for.
    mutating func mergeTerms(
        mode: OfferMode, period: ISOPeriod, periods: Int?, price: Price?, into existing: StoreKitValue?, idSeed: String
    ) -> StoreKitValue {
        var entry = existing ?? .object([])
        let paymentMode = StoreKitPaymentMode(mode)
        let wasFree = existing?["paymentMode"]?.string == StoreKitPaymentMode.free.rawValue
        entry["paymentMode"] = .string(paymentMode.rawValue)
        entry["subscriptionPeriod"] = .string(Self.period(period, keeping: existing?["subscriptionPeriod"]))
        switch paymentMode {
        case .payAsYouGo:
            entry["numberOfPeriods"] = .integer(periods ?? 1)
        case .free, .payUpFront:
            // One period, which 4.0 leaves unsaid and 5.0 writes.
            if entry["numberOfPeriods"] != nil || version >= StoreKitVersion.billingPlans { entry["numberOfPeriods"] = .integer(1) }
        }
        if let price, paymentMode != .free {
            entry["displayPrice"] = .string(Self.price(price, keeping: existing?["displayPrice"]))
        } else if !wasFree {
            entry["displayPrice"] = nil
        }
        if entry["internalID"] == nil { entry["internalID"] = .string(ids.make("offer", idSeed)) }
        if existing == nil, version >= StoreKitVersion.billingPlans { entry["billingPlanType"] = .string(XcodeDefaults.billedUpFront) }
        return entry
    }

    // MARK: Groups

    /// The groups: the base file's still in the catalog (matched by the key an
    /// import makes from their name, or by name), in their order, then the
    /// catalog's new groups; each with its subscriptions.
    mutating func buildGroups(_ existing: [StoreKitValue]) -> [StoreKitValue] {
        let baseKeys = ImportNaming.groupKeys(for: existing.map { $0["name"]?.string ?? "" })
        var matched: [String: StoreKitValue] = [:]
        var order: [String] = []
        for (entry, key) in zip(existing, baseKeys) {
            let name = entry["name"]?.string
            let group = catalog.groups.first { $0.id.value == key } ?? catalog.groups.first { $0.name.value == name }
            guard let group, matched[group.id.value] == nil else {
                if let name, let place = base?.groups.first(where: { $0.name.value == name }) {
                    note("the group `\(place.path)` (\(name)) is not in the catalog, so it is not in the export", at: place.range)
                    // Its subscriptions go with it: name each one the catalog does not have elsewhere.
                    let ids = catalog.products.map(\.id.value)
                    for subscription in entry["subscriptions"]?.elements ?? [] {
                        guard let id = subscription["productID"]?.string, !ids.contains(id) else { continue }
                        note("the subscription \(id) of the group `\(place.path)` (\(name)) is not in the catalog, so it is not in the export", at: place.range)
                    }
                }
                continue
            }
            matched[group.id.value] = entry
            order.append(group.id.value)
        }
        for group in catalog.groups where matched[group.id.value] == nil { order.append(group.id.value) }
        // Ids first: subscriptions name their group's.
        for key in order {
            if let id = matched[key]?["id"]?.string {
                groupIDs[key] = id
            } else {
                groupIDs[key] = ids.make("group", key)
            }
        }
        var result: [StoreKitValue] = []
        for key in order {
            guard let group = catalog.groups.first(where: { $0.id.value == key }) else { continue }
            result.append(mergeGroup(group, into: matched[key]))
        }
        return result
    }

    mutating func mergeGroup(_ group: SubscriptionGroup, into existing: StoreKitValue?) -> StoreKitValue {
        var entry = existing ?? .object([])
        entry["id"] = .string(groupIDs[group.id.value] ?? ids.make("group", group.id.value))
        let wasEmptyName = existing?["name"]?.string == "" && group.name.value == group.id.value
        entry["name"] = .string(wasEmptyName ? "" : group.name.value)
        var localizations: [StoreKitValue] = []
        var placed = Set<String>()
        for localization in existing?["localizations"]?.elements ?? [] {
            guard let locale = localization["locale"]?.string,
                  let held = group.localizations.first(where: { $0.locale.value == StoreKitLocalization.catalogLocale(locale) })
            else { continue }
            placed.insert(held.locale.value)
            var updated = localization
            let wasEmpty = localization["displayName"]?.string == "" && held.name.value == group.name.value
            updated["displayName"] = .string(wasEmpty ? "" : held.name.value)
            localizations.append(updated)
        }
        for held in group.localizations where !placed.contains(held.locale.value) {
            localizations.append(.object([
                "description": .string(""), "displayName": .string(held.name.value),
                "locale": .string(StoreKitLocalization.storeKitLocale(held.locale.value)),
            ]))
        }
        entry["localizations"] = .array(localizations)
        let members = catalog.products.filter { $0.subscription?.group.value == group.id.value }
        var subscriptions: [StoreKitValue] = []
        var placedProducts = Set<String>()
        for element in existing?["subscriptions"]?.elements ?? [] {
            guard let id = element["productID"]?.string, let product = members.first(where: { $0.id.value == id }) else {
                if let id = element["productID"]?.string { noteLeftOut(id, list: "subscriptions") }
                continue
            }
            placedProducts.insert(id)
            subscriptions.append(merge(product, into: element))
        }
        for product in members where !placedProducts.contains(product.id.value) {
            subscriptions.append(merge(product, into: baseProducts[product.id.value]))
            noteNew(product)
        }
        entry["subscriptions"] = .array(subscriptions)
        return entry
    }
}
