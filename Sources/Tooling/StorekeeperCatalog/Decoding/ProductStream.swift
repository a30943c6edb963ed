import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML

/// Decodes the products of a file while it is being parsed, so that their
/// nodes are dropped at once and a catalog of 10,000 products is never held
/// as a whole node tree, nor as two copies of its products.
///
/// A product is finished on the spot when it no longer depends on defaults
/// that might still come: the file's `defaults` was written before
/// `products`, or the product writes its own delivery, persistence and
/// restore (a family-sharing default can still be applied to it in place).
/// Otherwise it waits as a draft. `CatalogAccumulator.adopt` then registers
/// everything in file order, so the outcome is exactly that of decoding the
/// whole tree after parsing.
final class ProductStream: YAMLItemConsumer {
    /// One entry per item of `products`, in file order.
    enum Slot {
        /// Finished: the index in `products`, or nil when it has errors.
        case finished(id: Located<String>?, referenceName: Located<String>?, product: Int?)
        /// Waiting for the file's defaults: the index in `drafts`.
        case draft(Int)
        /// Kept in the node tree (not a mapping, an alias, or anchored).
        case kept
    }

    private(set) var slots: [Slot] = []
    private(set) var products: [Product] = []
    private(set) var drafts: [ProductDraft] = []
    /// What decoding found.
    private(set) var context = YAMLDecodingContext.catalog()
    /// Names the products use, to check once all declarations are read.
    private(set) var references: [ReferenceUse] = []
    /// The catalog file's defaults, when they and `catalog` come before `products`.
    private(set) var defaults: Defaults?

    func begin(preceding pairs: [YAMLNode.Pair]) {
        // Only a catalog file's defaults count (a fragment's are an error, and
        // its products take the catalog's): both keys must come first.
        guard pairs.contains(where: { $0.key.hasText("catalog") }),
              let pair = pairs.first(where: { $0.key.hasText("defaults") })
        else { return }
        // Decoded again with the rest of the file; here only the values matter.
        var scratch = YAMLDecodingContext.catalog()
        var ignored: [ReferenceUse] = []
        defaults = CatalogFileDecoder.decodeDefaults(pair.value, context: &scratch, references: &ignored)
    }

    func consume(_ item: YAMLNode) -> Bool {
        // Anything but a mapping stays in the tree; decoding it there reports it.
        guard item.kind == .mapping, let draft = ProductDecoder.draft(item, context: &context, references: &references) else {
            return false
        }
        let written = draft.written
        if let defaults {
            finish(consume draft, with: defaults)
        } else if written.delivery, written.persistence, written.restore {
            finish(consume draft, with: Defaults())
        } else {
            slots.append(.draft(drafts.count))
            drafts.append(consume draft)
        }
        return true
    }

    func kept() {
        slots.append(.kept)
    }

    private func finish(_ draft: consuming ProductDraft, with defaults: Defaults) {
        var decoded = ProductDecoder.complete(draft, defaults: defaults, context: &context)
        var index: Int?
        // Moved, not copied: a product holds dozens of references.
        if let product = decoded.product.take() {
            index = products.count
            products.append(consume product)
        }
        slots.append(.finished(id: decoded.id, referenceName: decoded.referenceName, product: index))
    }

    /// Hands the finished products over (the stream keeps none).
    func takeProducts() -> [Product] {
        defer { products = [] }
        return products
    }
}
