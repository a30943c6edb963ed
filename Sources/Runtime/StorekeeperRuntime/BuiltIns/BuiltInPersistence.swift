import StorekeeperCore

/// The built-in persistence strategies, one per `PersistenceStrategy`.
enum BuiltInPersistence {
    static let all: [any PersistenceStrategyPlugin] = PersistenceStrategy.allCases.map(plugin(for:))

    static func plugin(for strategy: PersistenceStrategy) -> any PersistenceStrategyPlugin {
        switch strategy {
        case .receipt: ReceiptPersistence()
        case .userDefaults: KeyValuePersistence(strategy: .userDefaults)
        case .icloud: KeyValuePersistence(strategy: .icloud)
        case .server: ServerPersistence()
        case .appState: AppStatePersistence()
        }
    }
}
