import StorekeeperDiagnostics

/// The catalog's `defaults`: values for products that leave them out.
struct Defaults: Sendable {
    var delivery: Delivery?
    var persistence: Persistence?
    var restore: Restore?
    var familyShareable: Located<Bool>?
    /// Keys written under `defaults`, valid or not: a product that leaves out
    /// a key with a broken default is not told to add it (the default's own
    /// error says what to fix). Every key, when `defaults` is not a mapping.
    var written: Set<String> = []
}

/// A name a product or rule uses that must be declared somewhere in the
/// catalog or its fragments; checked once every file is read.
struct ReferenceUse {
    enum Kind: String {
        case feature, balance, group

        var declaration: String {
            switch self {
            case .feature: "features"
            case .balance: "balances"
            case .group: "groups"
            }
        }
    }

    var kind: Kind
    var name: Located<String>
}
