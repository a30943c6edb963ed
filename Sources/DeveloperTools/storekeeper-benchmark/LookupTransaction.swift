import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperRuntime

/// One transaction as the dispatch loops see it: its product, found by id once, and its state.
struct LookupTransaction: Sendable {
    /// The product, as a handle of the compiled policy.
    let product: ProductHandle
    /// The state the store reported.
    let state: TransactionState
    /// The store's error, for `failed`; `nil` otherwise.
    let error: StoreErrorCode?
}
