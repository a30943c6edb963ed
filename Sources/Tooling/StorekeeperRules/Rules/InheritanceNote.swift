import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// The note for a value a product inherits from `defaults`: the diagnostic
/// points at the default (the text to change), the note at the product.
func inheritanceNotes(_ product: Product, inherited: Bool) -> [Diagnostic.Note] {
    inherited ? [Diagnostic.Note("inherited from `defaults` by \(product.id.value) here", at: product.location)] : []
}
