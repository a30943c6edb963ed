import Foundation
import StorekeeperContract
import StorekeeperStoreModel

/// The server's `GET /v1/entitlements` body read into the model's terms, for comparison: the members of
/// docs/store-model.md's "Expected entitlements". Lists are compared in the order the rules give (features
/// and products sorted, subscriptions by product then expiry), so the server's are sorted the same way;
/// a balance the server leaves out is 0 and an absent `owed` is empty, which the contract allows.
enum ServedEntitlements {
    /// The body read, or why it is not the contract's JSON.
    static func read(_ text: String, balances declared: [String]) -> Result<ExpectedEntitlements, LivesError> {
        let body: ServerEntitlements
        do throws(ContractError) {
            // The contract's own type, as the app's client reads it.
            body = try ContractCoding.decode(ServerEntitlements.self, from: Array(text.utf8))
        } catch {
            return .failure(LivesError("not the contract's entitlements JSON (\(error)): \(text)"))
        }
        var balances = body.balances
        for name in declared where balances[name] == nil { balances[name] = 0 }
        let subscriptions = body.subscriptions
            .map { ExpectedEntitlements.Subscription(product: $0.product, expirationDate: $0.expirationDate.timeIntervalSince1970, status: $0.status.rawValue) }
            .sorted { ($0.product, $0.expirationDate) < ($1.product, $1.expirationDate) }
        return .success(ExpectedEntitlements(
            features: body.features.sorted(), products: body.products.sorted(), balances: balances, owed: body.owed,
            subscriptions: subscriptions))
    }

    /// The members where `served` differs from `expected` (dates compared to the millisecond, Apple's unit);
    /// empty when they agree.
    static func differences(expected: ExpectedEntitlements, served: ExpectedEntitlements) -> [String] {
        var members: [String] = []
        if expected.features.sorted() != served.features { members.append("features") }
        if expected.products.sorted() != served.products { members.append("products") }
        if expected.balances.filter({ $0.value != 0 }) != served.balances.filter({ $0.value != 0 }) { members.append("balances") }
        if expected.owed.filter({ $0.value != 0 }) != served.owed.filter({ $0.value != 0 }) { members.append("owed") }
        let milliseconds = { (date: Double) in Int((date * 1_000).rounded()) }
        let expectedSubscriptions = expected.subscriptions
            .sorted { ($0.product, $0.expirationDate) < ($1.product, $1.expirationDate) }
            .map { "\($0.product) \($0.status) \(milliseconds($0.expirationDate))" }
        let servedSubscriptions = served.subscriptions.map { "\($0.product) \($0.status) \(milliseconds($0.expirationDate))" }
        if expectedSubscriptions != servedSubscriptions { members.append("subscriptions") }
        return members
    }
}
