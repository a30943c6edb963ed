import StorekeeperCompiler
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// One transaction as an app hands it to dispatch: what the store reported, and its product's handle,
/// found by id once beforehand.
struct DispatchTransaction: Sendable {
    /// The transaction as the store reported it.
    let transaction: StoreTransaction
    /// Its product in the compiled policy.
    let product: ProductHandle
}
