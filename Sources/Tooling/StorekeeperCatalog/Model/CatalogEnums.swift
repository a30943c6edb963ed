public import StorekeeperCore
public import StorekeeperYAML

/// A catalog enumeration spelled in kebab-case in YAML.
///
/// Conforming types get their YAML spelling from `rawValue` and their list of
/// valid spellings (for "did you mean" suggestions) from `allCases`.
public protocol CatalogEnum: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {
    /// The spellings, for matching a YAML value without making a `String`.
    static var spellings: YAMLKeyTable<Self> { get }
}

extension ProductType: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<ProductType>()
}

extension Platform: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<Platform>()
}

extension ServerIdentity: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<ServerIdentity>()
}

extension RefundedSpendPolicy: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<RefundedSpendPolicy>()
}

extension DeliveryModel: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<DeliveryModel>()
}

extension ContentSource: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<ContentSource>()
}

extension ContentStorage: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<ContentStorage>()
}

extension PersistenceStrategy: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<PersistenceStrategy>()
}

extension RecordKind: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<RecordKind>()
}

extension RestorePolicy: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<RestorePolicy>()
}

extension RestoreTrigger: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<RestoreTrigger>()
}

extension RestoreSelection: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<RestoreSelection>()
}

extension SubscriptionPeriod: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<SubscriptionPeriod>()
}

extension OfferMode: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<OfferMode>()
}

extension TransactionState: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<TransactionState>()
}

extension StoreErrorCode: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<StoreErrorCode>()
}

extension OfferKind: CatalogEnum {
    /// The spellings, for matching without making a `String`.
    public static let spellings = YAMLKeyTable<OfferKind>()
}
