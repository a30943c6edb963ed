/// Why a payment was not sent to the store.
public enum PaymentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The product is not in the catalog.
    case unknownProduct(String, suggestion: String?)
    /// The quantity is outside 1 up to the product's `max-quantity`.
    case quantityOutOfRange(product: String, quantity: Int, maximum: Int)
    /// `start` has not been called: observers must be registered before any
    /// transaction can arrive.
    case notStarted

    /// What is wrong and what would be right.
    public var description: String {
        switch self {
        case .unknownProduct(let id, let suggestion):
            "no product '\(id)' in the catalog" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .quantityOutOfRange(let product, let quantity, let maximum):
            "quantity \(quantity) of \(product) is outside 1...\(maximum) (its max-quantity)"
        case .notStarted:
            "the queue has not started: call start(observers:) before adding payments"
        }
    }
}
