/// An Xcode StoreKit configuration file (placeholder: filled in by issue 7).
public struct StoreKitConfiguration: Sendable {}
