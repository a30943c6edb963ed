import Foundation
import StorekeeperRuntime

extension StoreModel {
    /// Makes sure `id` exists; the model learns Apple IDs as they act.
    mutating func touch(appleID id: String) {
        if world.appleIDs[id] == nil { world.appleIDs[id] = StoreWorld.AppleID(id: id) }
    }

    /// The device of `appleID` runs the app signed in as `account`.
    mutating func signIn(appleID: String, account: String) {
        touch(appleID: appleID)
        world.appleIDs[appleID]?.account = account
        if world.appleIDs[appleID]?.accounts.contains(account) == false { world.appleIDs[appleID]?.accounts.append(account) }
    }

    /// The product `id`, or an error listing the policy's products.
    func product(_ id: String) throws(StoreModelError) -> ProductPolicy {
        guard let product = products[id] else {
            throw StoreModelError("no product '\(id)' in the policy; its products are \(products.keys.sorted().joined(separator: ", "))")
        }
        return product
    }

    /// The members of `appleID`'s family group other than itself, in join order (none outside a family).
    func otherFamilyMembers(of appleID: String) -> [String] {
        guard let organizer = world.appleIDs[appleID]?.organizer else { return [] }
        return (world.families[organizer] ?? []).filter { $0 != appleID }
    }
}
