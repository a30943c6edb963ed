import StorekeeperCore

/// The product settings a catalog refuses in any combination, checked on a
/// product policy: by `PolicyDecoder`, so that a compiled policy edited by
/// hand cannot hold what no catalog can say, and by `PolicyCompiler`, so
/// that it never writes one.
///
/// Covers the fields that apply to some product types only (as
/// `ProductDecoder` refuses them), the options that need a particular
/// strategy or source (`PersistenceDecoder`, `DeliveryDecoder`), and what
/// the runtime cannot do (`server-required`). A consumable that restores is
/// left to the `consumable-restore` policy rule, which a catalog may
/// suppress (a server that re-grants coins on restore: docs/configuration.md).
package enum ProductConsistency {
    /// A problem: the product member it is at, and what is wrong.
    package struct Problem: Equatable {
        package var member: String
        package var message: String
    }

    /// The first setting of `product` a catalog could not hold; nil when none.
    package static func firstProblem(of product: ProductPolicy, hasServer: Bool) -> Problem? {
        let type = product.type
        if product.familyShareable, type != .nonConsumable, type != .autoRenewableSubscription {
            return Problem(member: "family-shareable",
                           message: "only non-consumables and auto-renewable subscriptions are family-shareable; this product is \(type.rawValue), so it is false")
        }
        if product.maxQuantity != 1, type != .consumable {
            return Problem(member: "max-quantity", message: "'max-quantity' applies only to consumables; this product is \(type.rawValue), so it is 1")
        }
        if (product.subscription != nil) != (type == .autoRenewableSubscription) {
            return Problem(member: "subscription", message: type == .autoRenewableSubscription
                ? "an auto-renewable subscription has a 'subscription' (group, level, period)"
                : "'subscription' applies only to auto-renewable subscriptions; this product is \(type.rawValue), so remove it")
        }
        if (product.duration != nil) != (type == .nonRenewingSubscription) {
            return Problem(member: "duration", message: type == .nonRenewingSubscription
                ? "a non-renewing subscription has a 'duration'"
                : "'duration' applies only to non-renewing subscriptions; this product is \(type.rawValue), so remove it")
        }
        if !product.offers.isEmpty, type != .autoRenewableSubscription {
            return Problem(member: "offers", message: "'offers' applies only to auto-renewable subscriptions; this product is \(type.rawValue), so remove it")
        }
        if let repeated = Self.firstRepeatedOffer(in: product.offers) {
            return Problem(member: "offers", message: "the offer '\(repeated)' is declared twice; an offer identifier is unique within its subscription")
        }
        if product.record != .flag, product.persistence != .userDefaults, product.persistence != .icloud {
            return Problem(member: "record", message: "'record' applies to the user-defaults and icloud strategies, not \(product.persistence.rawValue); it is flag")
        }
        if product.restore == .none, product.restoreTrigger != .user || product.restoreSelection != .all {
            let member = product.restoreTrigger != .user ? "restore-trigger" : "restore-selection"
            return Problem(member: member, message: "'\(member)' has no effect when the restore policy is none; it is \(member == "restore-trigger" ? "user" : "all")")
        }
        if let content = product.content, content.storage != nil, content.source == .bundle {
            return Problem(member: "content.storage", message: "'storage' applies to downloaded content; bundle content is inside the app, so remove it")
        }
        if !hasServer {
            if product.delivery == .server {
                return Problem(member: "delivery", message: "the product is delivered by your server, but the policy has none ('server' is null)")
            }
            if product.restore == .server {
                return Problem(member: "restore", message: "the product is restored from your server, but the policy has none ('server' is null)")
            }
        }
        return nil
    }

    /// The first offer identifier `offers` names twice, if any.
    private static func firstRepeatedOffer(in offers: [OfferPolicy]) -> String? {
        var seen: Set<String> = []
        return offers.first { !seen.insert($0.id).inserted }?.id
    }
}
