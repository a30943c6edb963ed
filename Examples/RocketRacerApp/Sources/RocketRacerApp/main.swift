// Rocket Racer's store, reduced to what the generated Swift gives an app:
// every name below comes from catalog.yaml, checked by the compiler.

print("Products (\(Product.allCases.count)):")
for product in Product.allCases {
    let unlocks = product.unlocks.map(\.rawValue).joined(separator: ", ")
    let grants = product.grants.map { "\($0.value) \($0.key.rawValue)" }.sorted().joined(separator: ", ")
    let group = product.subscriptionGroup.map { " [\($0.rawValue), level \(product.subscriptionLevel ?? 1)]" } ?? ""
    print("  \(product.rawValue): \(product.type.rawValue)\(group)"
        + (unlocks.isEmpty ? "" : ", unlocks \(unlocks)")
        + (grants.isEmpty ? "" : ", grants \(grants)"))
}

// A product by name: a misspelling (Product.rocketCra) does not compile.
let featured = Product.rocketCar
print("Featured: \(featured.rawValue), a \(featured.type.rawValue) that unlocks \(featured.unlocks.map(\.rawValue).joined(separator: ", "))")

var inventory = PlayerInventory()
inventory.deliver(featured)
inventory.deliver(.coins500, quantity: 3)
// StoreKit names a transaction's product by its id: the raw value.
if let product = Product(rawValue: "com.example.rocketracer.pro.monthly") {
    inventory.deliver(product)
}

print("After buying the Rocket Car, 3 × 500 Coins and Pro Monthly:")
for feature in Feature.allCases {
    print("  \(feature.rawValue): \(inventory.isUnlocked(feature) ? "unlocked" : "locked")")
}
print("  coins: \(inventory.balances[.coins, default: 0])")
print("  pro subscription: \(inventory.subscription(in: .pro)?.rawValue ?? "none")")

// The same purchases through the runtime: the bundled policy's plans, run by
// the transaction queue against the simulated App Store.
let run = try await StoreSession.buyRocketCarAndCoins()
print("The store's prices (the simulated store here; StoreKit 2 on a device):")
for price in run.prices { print("  \(price)") }
print("Through the transaction queue and the simulated App Store:")
for feature in Feature.allCases {
    print("  \(feature.rawValue): \(run.entitlements.isUnlocked(feature.rawValue) ? "unlocked" : "locked")")
}
print("  coins: \(run.entitlements.balance(Balance.coins.rawValue))")
