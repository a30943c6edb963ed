import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

/// What a round trip must keep of a product, in one comparable value: built
/// once from Foundation's reading of the original .storekit JSON (with the
/// test's own tables of Xcode's spellings) and once from a catalog, so that
/// the comparison does not go through the code under test's model.
struct ProductFacts: Hashable, CustomStringConvertible {
    struct Localization: Hashable {
        var locale: String
        var title: String
        var description: String
    }

    struct Offer: Hashable {
        var kind: String
        var id: String?
        var referenceName: String?
        var mode: String
        var period: String
        var periods: Int?
        var cents: Int?
    }

    var id: String
    var type: String
    var referenceName: String
    var cents: Int
    var familyShareable: Bool
    var localizations: [Localization]
    var period: String?
    var groupName: String?
    var level: Int?
    var introductoryOffer: Offer?
    var offers: [Offer]

    var description: String { "\(id) (\(type))" }

    // MARK: From the .storekit JSON

    static let types = ["Consumable": "consumable", "NonConsumable": "non-consumable",
                        "NonRenewingSubscription": "non-renewing-subscription", "RecurringSubscription": "auto-renewable-subscription"]
    static let modes = ["free": "free-trial", "payAsYouGo": "pay-as-you-go", "payUpFront": "pay-up-front"]
    static let offerLists = ["adHocOffers": "promotional", "codeOffers": "offer-code", "winbackOffers": "win-back"]

    /// "10.99" as 1099, "28" as 2800.
    static func cents(_ text: String) -> Int? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard let whole = Int(parts[0]) else { return nil }
        guard parts.count == 2 else { return whole * 100 }
        let fraction = String(parts[1])
        guard fraction.count <= 2, let value = Int(fraction) else { return nil }
        return whole * 100 + (fraction.count == 1 ? value * 10 : value)
    }

    /// Every product of a .storekit file, as Foundation read it.
    static func fromStoreKit(_ json: [String: Any]) -> [ProductFacts] {
        var result: [ProductFacts] = []
        for list in ["products", "nonRenewingSubscriptions"] {
            for entry in json[list] as? [[String: Any]] ?? [] { result.append(product(entry, group: nil)) }
        }
        for group in json["subscriptionGroups"] as? [[String: Any]] ?? [] {
            for entry in group["subscriptions"] as? [[String: Any]] ?? [] { result.append(product(entry, group: group["name"] as? String)) }
        }
        return result
    }

    static func product(_ entry: [String: Any], group: String?) -> ProductFacts {
        let type = types[entry["type"] as? String ?? ""] ?? "?"
        let shareable = type == "non-consumable" || type == "auto-renewable-subscription"
        let localizations = (entry["localizations"] as? [[String: Any]] ?? []).map { localization in
            Localization(
                locale: (localization["locale"] as? String ?? "").replacingOccurrences(of: "_", with: "-"),
                title: localization["displayName"] as? String ?? "", description: localization["description"] as? String ?? "")
        }
        var introductory: Offer?
        if let offer = entry["introductoryOffer"] as? [String: Any] { introductory = self.offer(offer, kind: "introductory") }
        var offers: [Offer] = []
        for (list, kind) in offerLists.sorted(by: { $0.key < $1.key }) {
            for offer in entry[list] as? [[String: Any]] ?? [] { offers.append(self.offer(offer, kind: kind)) }
        }
        return ProductFacts(
            id: entry["productID"] as? String ?? "", type: type, referenceName: entry["referenceName"] as? String ?? "",
            cents: cents(entry["displayPrice"] as? String ?? "") ?? -1,
            familyShareable: shareable && (entry["familyShareable"] as? Bool ?? false), localizations: localizations,
            period: entry["recurringSubscriptionPeriod"] as? String, groupName: group, level: entry["groupNumber"] as? Int,
            introductoryOffer: introductory, offers: offers.sorted { ($0.kind, $0.id ?? "") < ($1.kind, $1.id ?? "") })
    }

    static func offer(_ offer: [String: Any], kind: String) -> Offer {
        let mode = modes[offer["paymentMode"] as? String ?? ""] ?? "?"
        let count = offer["numberOfPeriods"] as? Int
        return Offer(
            kind: kind, id: offer["offerID"] as? String, referenceName: offer["referenceName"] as? String, mode: mode,
            period: offer["subscriptionPeriod"] as? String ?? "",
            // A catalog's free trials and pay-up-front offers last their period once, which files write as 1 or not at all.
            periods: mode == "pay-as-you-go" ? count : nil,
            cents: mode == "free-trial" ? nil : (offer["displayPrice"] as? String).flatMap(cents))
    }

    // MARK: From a catalog

    static func fromCatalog(_ catalog: Catalog) -> [ProductFacts] {
        catalog.products.map { product in
            let subscription = product.subscription
            let group = subscription.flatMap { held in catalog.groups.first { $0.id.value == held.group.value }?.name.value }
            var introductory: Offer?
            if let offer = subscription?.introductoryOffer {
                introductory = Offer(
                    kind: "introductory", id: nil, referenceName: nil, mode: offer.mode.value.rawValue, period: offer.period.value.description,
                    periods: offer.periods?.value, cents: offer.price?.value.cents)
            }
            let offers = (subscription?.offers ?? []).map { offer in
                Offer(
                    kind: offer.kind.value.rawValue, id: offer.id.value, referenceName: offer.referenceName.value, mode: offer.mode.value.rawValue,
                    period: offer.period.value.description, periods: offer.periods?.value, cents: offer.price?.value.cents)
            }
            return ProductFacts(
                id: product.id.value, type: product.type.value.rawValue, referenceName: product.referenceName.value, cents: product.price.value.cents,
                familyShareable: product.isFamilyShareable,
                localizations: product.localizations.map { Localization(locale: $0.locale.value, title: $0.title.value, description: $0.description.value) },
                period: subscription?.period.value.rawValue, groupName: group, level: subscription.map(\.effectiveLevel),
                introductoryOffer: introductory, offers: offers.sorted { ($0.kind, $0.id ?? "") < ($1.kind, $1.id ?? "") })
        }
    }

    /// The facts with every empty title and description replaced as an import
    /// documents it (a title by the reference name, a description by the title).
    var withPlaceholders: ProductFacts {
        var copy = self
        copy.localizations = localizations.map { localization in
            let title = localization.title.isEmpty ? referenceName : localization.title
            return Localization(locale: localization.locale, title: title, description: localization.description.isEmpty ? title : localization.description)
        }
        return copy
    }
}

/// Group localizations as Foundation reads them (group name -> [locale: name]),
/// and as a catalog holds them.
enum GroupFacts {
    static func fromStoreKit(_ json: [String: Any]) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for group in json["subscriptionGroups"] as? [[String: Any]] ?? [] {
            var names: [String: String] = [:]
            for localization in group["localizations"] as? [[String: Any]] ?? [] {
                names[(localization["locale"] as? String ?? "").replacingOccurrences(of: "_", with: "-")] = localization["displayName"] as? String
            }
            result[group["name"] as? String ?? ""] = names
        }
        return result
    }

    static func fromCatalog(_ catalog: Catalog) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for group in catalog.groups {
            result[group.name.value] = Dictionary(uniqueKeysWithValues: group.localizations.map { ($0.locale.value, $0.name.value) })
        }
        return result
    }
}
