import StorekeeperCatalog
import StorekeeperCore
import StorekeeperTooling

/// Catalogs for the workflow tests, read from memory.
enum TestCatalogs {
    /// A consumable, written as an author would; `restore` and `extraProducts`
    /// vary it.
    static func shop(restore: String = "none", extraProducts: String = "", rules: String = "") -> String {
        """
        catalog: shop
        app:
          bundle-id: com.example.shop
          minimum-os: "15.0"
        products:
          - id: com.example.shop.coins
            type: consumable
            reference-name: Coins
            price: "0.99"
            localizations:
              en-US: {title: Coins, description: A bag of coins}
            delivery: built-in
            persistence: app-state
            restore: \(restore)
        \(extraProducts)\(rules)
        """
    }

    /// A second consumable, to remove between two versions of the catalog.
    static let gems = """
          - id: com.example.shop.gems
            type: consumable
            reference-name: Gems
            price: "1.99"
            localizations:
              en-US: {title: Gems, description: A pouch of gems}
            delivery: built-in
            persistence: app-state
            restore: none

        """

    /// Options that read `files` from memory.
    static func options(_ files: [String: String], checksPolicy: Bool = true) -> WorkflowOptions {
        WorkflowOptions(reader: InMemorySourceReader(files), checksPolicy: checksPolicy)
    }
}
