/// The words of the generated products: titles, descriptions and prices in the shape real catalogs have.
///
/// Every title, with a product number of up to six digits after it, stays within the App Store's 30
/// characters, and every description within its 45, counted in characters or in UTF-8 bytes alike.
/// No text holds `,` `:` `#` `[` `]` `{` `}`, so each can be written as a plain scalar, in a flow
/// mapping too.
enum ProductVocabulary {
    /// A product's name and description in the two languages of the catalog.
    struct Theme: Sendable {
        /// The English title, before the product number.
        let englishTitle: String
        /// The French title, before the product number.
        let frenchTitle: String
        /// The English description.
        let englishDescription: String
        /// The French description.
        let frenchDescription: String
    }

    /// The words for a consumable that adds to a balance; the English noun is the balance's own name.
    struct BalanceWords: Sendable {
        /// The English title, before the product number.
        let englishTitle: String
        /// The French title, before the product number.
        let frenchTitle: String
        /// The balance's name in French, plural.
        let frenchNoun: String
    }

    /// Themes for non-consumable products: content that stays unlocked.
    static let unlockables: [Theme] = [
        Theme(englishTitle: "Star Pack", frenchTitle: "Pack étoile",
              englishDescription: "Twelve new star levels", frenchDescription: "Douze nouveaux niveaux étoile"),
        Theme(englishTitle: "Night Track", frenchTitle: "Piste de nuit",
              englishDescription: "A race under the city lights", frenchDescription: "Une course sous les lumières de la ville"),
        Theme(englishTitle: "Gold Skin", frenchTitle: "Apparence dorée",
              englishDescription: "A golden look for your car", frenchDescription: "Un look doré pour ta voiture"),
        Theme(englishTitle: "Map Bundle", frenchTitle: "Lot de cartes",
              englishDescription: "Five new maps to explore", frenchDescription: "Cinq nouvelles cartes à explorer"),
        Theme(englishTitle: "Pro Tools", frenchTitle: "Outils pro",
              englishDescription: "Advanced editing tools", frenchDescription: "Des outils d'édition avancés"),
    ]

    /// The words for each balance in ``CatalogPlan/balanceNames``, in the same order.
    static let balanceWords: [BalanceWords] = [
        BalanceWords(englishTitle: "Coin Bag", frenchTitle: "Sac de pièces", frenchNoun: "pièces"),
        BalanceWords(englishTitle: "Gem Bag", frenchTitle: "Sac de gemmes", frenchNoun: "gemmes"),
        BalanceWords(englishTitle: "Hint Bag", frenchTitle: "Sac d'indices", frenchNoun: "indices"),
        BalanceWords(englishTitle: "Credit Bag", frenchTitle: "Sac de crédits", frenchNoun: "crédits"),
    ]

    /// The amounts a consumable grants.
    static let grantAmounts = [10, 50, 100, 500, 1000]

    /// A monthly subscription.
    static let monthly = Theme(
        englishTitle: "Pro Monthly", frenchTitle: "Pro mensuel",
        englishDescription: "Every pro track every month", frenchDescription: "Toutes les pistes pro chaque mois")

    /// A yearly subscription.
    static let yearly = Theme(
        englishTitle: "Pro Yearly", frenchTitle: "Pro annuel",
        englishDescription: "Every pro track for a year", frenchDescription: "Toutes les pistes pro pendant un an")

    /// A non-renewing subscription.
    static let seasonPass = Theme(
        englishTitle: "Season Pass", frenchTitle: "Passe saison",
        englishDescription: "Three months of events", frenchDescription: "Trois mois d'événements")

    /// Price points of non-consumables.
    static let unlockablePrices = ["0.99", "1.99", "2.99", "4.99", "9.99"]
    /// Price points of consumables.
    static let consumablePrices = ["0.99", "1.99", "4.99", "9.99", "19.99"]
    /// Price points of monthly subscriptions.
    static let monthlyPrices = ["2.99", "3.99", "4.99"]
    /// Price points of yearly subscriptions.
    static let yearlyPrices = ["29.99", "39.99", "49.99"]
    /// Price points of non-renewing subscriptions.
    static let seasonPassPrices = ["4.99", "9.99", "14.99"]
}
