/// Who delivers what a purchase buys.
public enum DeliveryModel: String, CaseIterable, Hashable, Sendable {
    /// Everything ships in the app (or is Apple-hosted); the purchase unlocks it.
    case builtIn = "built-in"
    /// The app's server delivers it, after validating the receipt.
    case server
}
