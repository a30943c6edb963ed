public import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// The two catalogs a check compares, with their products matched by id.
public struct DiffContext: Sendable {
    /// The catalog as it was (what people bought under).
    public let old: Catalog
    /// The catalog as it is now.
    public let new: Catalog
    /// Products in both catalogs, in the old catalog's order.
    public let pairs: [ProductPair]
    /// Products of the old catalog that the new one does not have, in order.
    public let removed: [Product]
    /// Products of the new catalog that the old one did not have, in order.
    public let added: [Product]

    /// Matches the products of two catalogs by id.
    public init(old: Catalog, new: Catalog) {
        self.old = old
        self.new = new
        var newByID: [String: Int] = [:]
        for (index, product) in new.products.enumerated() where newByID[product.id.value] == nil {
            newByID[product.id.value] = index
        }
        var pairs: [ProductPair] = []
        var removed: [Product] = []
        var matched = Set<Int>()
        for product in old.products {
            if let index = newByID[product.id.value] {
                pairs.append(ProductPair(old: product, new: new.products[index]))
                matched.insert(index)
            } else {
                removed.append(product)
            }
        }
        self.pairs = pairs
        self.removed = removed
        added = new.products.indices.filter { !matched.contains($0) }.map { new.products[$0] }
    }
}

/// One product as it was and as it is.
public struct ProductPair: Sendable {
    /// The product in the old catalog.
    public let old: Product
    /// The product in the new catalog.
    public let new: Product

    /// Whether its type is unchanged: checks of what a type implies (persistence,
    /// restore, subscriptions) stay quiet when the type itself changed, since
    /// `diff-product-type` already says that everything about it breaks.
    public var sameType: Bool { old.type.value == new.type.value }

    /// The product's id.
    public var id: String { new.id.value }
}

extension ProductType {
    /// Whether people keep what they bought: every type but consumables, which are used up.
    var isOwned: Bool { self != .consumable }

    /// The type with an article, as a message says it: "a non-consumable".
    var withArticle: String {
        switch self {
        case .consumable: "a consumable"
        case .nonConsumable: "a non-consumable"
        case .autoRenewableSubscription: "an auto-renewable subscription"
        case .nonRenewingSubscription: "a non-renewing subscription"
        }
    }
}

/// Notes every check uses: the old value, and a value inherited from `defaults`.
enum DiffNotes {
    /// A note at the old catalog's value: "was: user-defaults".
    static func was<Value>(_ text: String, at value: Located<Value>) -> Diagnostic.Note {
        Diagnostic.Note("the old catalog had \(text) here", at: value.location)
    }

    /// A note at a product that inherits the reported value from `defaults`
    /// (the diagnostic points at the default, the text to change).
    static func inherited(by product: Product, _ isInherited: Bool) -> [Diagnostic.Note] {
        isInherited ? [Diagnostic.Note("inherited from `defaults` by \(product.id.value) here", at: product.id.location)] : []
    }

    /// "a, b and c" (at most `limit` names, then "and N more").
    static func list(_ names: [String], limit: Int = 5) -> String {
        let quoted = names.prefix(limit).map { "'\($0)'" }
        let rest = names.count - quoted.count
        var items = quoted
        if rest > 0 { items.append("\(rest) more") }
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
        }
    }
}
