import Foundation
import StorekeeperCore
import StorekeeperRuntime

/// A step drawn for a life: an action of the world, or the clock moving on.
enum LifeChoice: Sendable, Hashable {
    case act(StoreAction)
    case advance(TimeInterval)
}

extension RandomLife {
    /// The offers a subscription purchase may redeem (the model refuses those a customer is not eligible for).
    /// Source: https://developer.apple.com/documentation/storekit/product/subscriptionoffer/offertype
    static let offers: [Offer] = [
        Offer(kind: .introductory, discountType: .freeTrial, period: "P1W"),
        Offer(kind: .introductory, discountType: .payAsYouGo, period: "P1M", periods: 3),
        Offer(kind: .promotional, identifier: "promo-half-price", discountType: .payUpFront, period: "P1M"),
        Offer(kind: .offerCode, identifier: "code-free-month", discountType: .freeTrial, period: "P1M"),
        Offer(kind: .winBack, identifier: "win-back-first-month", discountType: .payUpFront, period: "P1M"),
    ]

    /// A step of a kind drawn by the settings' weights, naming people, products and transactions that
    /// exist; nil when there is nothing to name for the kind drawn (another is drawn).
    mutating func randomAction() -> LifeChoice? {
        let weights = settings.weights
        let kinds: [(Int, Kind)] = [
            (weights.buy, .buy), (weights.advance, .advance), (weights.autoRenew, .autoRenew), (weights.billing, .billing),
            (weights.changeSubscription, .change), (weights.refunds, .refunds), (weights.family, .family), (weights.developer, .developer),
        ]
        let total = kinds.reduce(0) { $0 + max(0, $1.0) }
        guard total > 0 else { return .advance(randomDuration()) }
        var draw = random.next(below: total)
        var kind = Kind.advance
        for (weight, candidate) in kinds where weight > 0 {
            if draw < weight {
                kind = candidate
                break
            }
            draw -= weight
        }
        switch kind {
        case .advance:
            return .advance(randomDuration())
        case .buy:
            return .act(.buy(randomPurchase()))
        case .autoRenew:
            guard let subscription = pick(paidSubscriptions) else { return nil }
            return .act(.setAutoRenew(appleID: subscription.appleID, originalTransactionID: subscription.originalTransactionID, on: !subscription.autoRenews))
        case .billing:
            let person = people[random.next(below: people.count)]
            return .act(random.chance(0.5) ? .billingFails(appleID: person.appleID) : .billingRecovers(appleID: person.appleID))
        case .change:
            guard let subscription = pick(paidSubscriptions),
                  let target = pick(products.filter { $0.subscription?.group == subscription.group && $0.id != subscription.productID })
            else { return nil }
            return .act(.changeSubscription(appleID: subscription.appleID, originalTransactionID: subscription.originalTransactionID, to: target.id))
        case .refunds:
            return randomRefundAction()
        case .family:
            let person = people[random.next(below: people.count)]
            if random.chance(0.3) { return .act(.leaveFamily(appleID: person.appleID)) }
            guard let organizer = pick(people.filter { $0 != person }) else { return nil }
            return .act(.joinFamily(appleID: person.appleID, organizer: organizer.appleID))
        case .developer:
            switch random.next(below: 3) {
            case 0:
                guard let subscription = pick(paidSubscriptions) else { return nil }
                return .act(.extendRenewal(originalTransactionID: subscription.originalTransactionID, days: random.next(in: 1...90)))
            case 1:
                guard let product = pick(products.filter { $0.type == .autoRenewableSubscription }) else { return nil }
                return .act(.priceIncrease(productID: product.id))
            default:
                // A subscriber asked to consent (priceIncreaseStatus 0), else any: the model refuses the others.
                let asked = paidSubscriptions.filter { $0.priceIncreaseStatus == 0 }
                guard let subscription = pick(asked.isEmpty ? paidSubscriptions : asked) else { return nil }
                return .act(.consentToPriceIncrease(appleID: subscription.appleID, originalTransactionID: subscription.originalTransactionID))
            }
        }
    }

    /// The subscriptions people pay for themselves (not family members' shared copies), in a stable order:
    /// the world's, by original transaction id (a dictionary's order changes from run to run).
    private var paidSubscriptions: [StoreWorld.Subscription] {
        model.world.subscriptions.values.filter { $0.sharedFrom == nil }.sorted { $0.originalTransactionID < $1.originalTransactionID }
    }

    enum Kind {
        case buy, advance, autoRenew, billing, change, refunds, family, developer
    }

    /// A purchase by someone, of any product; a quantity for consumables; with or without the account's token;
    /// sometimes with an offer for subscriptions.
    private mutating func randomPurchase() -> Purchase {
        let person = people[random.next(below: people.count)]
        let product = products[random.next(below: max(1, products.count))]
        let quantity = product.type == .consumable ? random.next(in: 1...max(1, min(3, product.maxQuantity))) : 1
        let token = random.chance(0.7)
        var offer: Offer?
        if product.type == .autoRenewableSubscription, random.chance(0.25) {
            offer = Self.offers[random.next(below: Self.offers.count)]
        }
        return Purchase(appleID: person.appleID, account: person.account, productID: product.id, quantity: quantity,
                        setsAppAccountToken: token, offer: offer)
    }

    /// A refund (full, or partial in milliunits), a declined one, a reversed one (of a revoked transaction)
    /// or a consumption request.
    private mutating func randomRefundAction() -> LifeChoice? {
        switch random.next(below: 6) {
        case 0, 1:
            guard let id = pick(known.transactionIDs) else { return nil }
            let partial = random.chance(0.4)
            let percentage: Int? = partial ? [25_000, 33_333, 50_000, 66_667, random.next(in: 1...99_999)][random.next(below: 5)] : nil
            return .act(.refund(transactionID: id, percentage: percentage))
        case 2:
            guard let id = pick(known.transactionIDs) else { return nil }
            return .act(.declineRefund(transactionID: id))
        case 3, 4:
            guard let id = pick(known.revokedTransactionIDs) ?? pick(known.transactionIDs) else { return nil }
            return .act(.reverseRefund(transactionID: id))
        default:
            guard let id = pick(known.transactionIDs) else { return nil }
            return .act(.requestConsumption(transactionID: id))
        }
    }

    /// Minutes (often), hours, days, or one to two months and more (renewals, grace and retry ends, expiries).
    mutating func randomDuration() -> TimeInterval {
        switch random.next(below: 10) {
        case 0...3: Double(random.next(in: 1...180)) * 60
        case 4...6: Double(random.next(in: 1...72)) * 3_600
        case 7, 8: Double(random.next(in: 1...20)) * 86_400
        default: Double(random.next(in: 25 * 24...70 * 24)) * 3_600
        }
    }

    private mutating func pick<Element>(_ elements: [Element]) -> Element? {
        elements.isEmpty ? nil : elements[random.next(below: elements.count)]
    }

    /// An action in a few words, for the life's story.
    static func describe(_ action: StoreAction) -> String {
        switch action {
        case .buy(let purchase):
            var words = ["\(purchase.appleID) as \(purchase.account) buys \(purchase.productID)"]
            if purchase.quantity != 1 { words.append("x\(purchase.quantity)") }
            if !purchase.setsAppAccountToken { words.append("without appAccountToken") }
            if let offer = purchase.offer { words.append("with offer \(offer.kind) \(offer.discountType.rawValue)\(offer.identifier.map { " " + $0 } ?? "")") }
            return words.joined(separator: " ")
        case let .spend(account, balance, amount): return "\(account) spends \(amount) \(balance)"
        case let .setAutoRenew(appleID, original, on): return "\(appleID) turns auto-renew \(on ? "on" : "off") for \(original)"
        case .billingFails(let appleID): return "the payment method of \(appleID) starts failing"
        case .billingRecovers(let appleID): return "the payment method of \(appleID) is fixed"
        case let .changeSubscription(appleID, original, to): return "\(appleID) changes \(original) to \(to)"
        case let .refund(id, percentage): return "Apple refunds \(id)" + (percentage.map { " (\($0) milliunits of 100000)" } ?? " in full")
        case .declineRefund(let id): return "Apple declines a refund of \(id)"
        case .reverseRefund(let id): return "Apple reverses the refund of \(id)"
        case .requestConsumption(let id): return "a refund of \(id) is asked for: CONSUMPTION_REQUEST"
        case let .joinFamily(appleID, organizer): return "\(appleID) joins the family of \(organizer)"
        case .leaveFamily(let appleID): return "\(appleID) leaves the family"
        case let .extendRenewal(original, days): return "the developer extends \(original) by \(days) days"
        case .priceIncrease(let product): return "the developer raises the price of \(product)"
        case let .consentToPriceIncrease(appleID, original): return "\(appleID) consents to the price increase of \(original)"
        case let .signIn(appleID, account): return "\(appleID) signs in as \(account)"
        }
    }
}
