import Dispatch
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
///
/// With `pipelined`, products are decoded on a second thread while libyaml
/// goes on parsing on the first: each finished item is copied out of the
/// tree and handed over in batches to a serial queue, which keeps file
/// order; a semaphore bounds the batches in flight, and so the memory.
/// Everything the stream holds is then touched only on that queue until
/// `waitUntilDone()` returns.
final class ProductStream: YAMLItemConsumer, @unchecked Sendable {
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
    private(set) var context = DecodingContext()
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
        var scratch = DecodingContext()
        var ignored: [ReferenceUse] = []
        defaults = CatalogFileDecoder.decodeDefaults(pair.value, context: &scratch, references: &ignored)
    }

    /// Work handed to the decoding queue, in file order.
    private enum Work {
        case item(YAMLDocument)
        case kept
    }

    private let queue: DispatchQueue?
    private let inFlight = DispatchSemaphore(value: 4)
    private var batch: [Work] = []
    private static let batchSize = 64

    /// A stream that decodes on the parsing thread, or with `pipelined` on a
    /// second one.
    init(pipelined: Bool = false) {
        queue = pipelined ? DispatchQueue(label: "storekeeper.product-stream") : nil
    }

    func consume(_ item: YAMLNode) -> Bool {
        // Anything but a mapping stays in the tree; decoding it there reports it.
        guard item.kind == .mapping else { return false }
        guard queue != nil else {
            decode(item)
            return true
        }
        batch.append(.item(item.detached()))
        if batch.count >= Self.batchSize { submit() }
        return true
    }

    func kept() {
        guard queue != nil else {
            slots.append(.kept)
            return
        }
        batch.append(.kept)
    }

    /// Hands the batch so far to the queue (waiting while too many are in flight).
    private func submit() {
        guard let queue, !batch.isEmpty else { return }
        let work = batch
        batch = []
        inFlight.wait()
        queue.async { [self] in
            for entry in work {
                switch entry {
                case .item(let document): document.withUnownedRoot { root in if let root { decode(root) } }
                case .kept: slots.append(.kept)
                }
            }
            inFlight.signal()
        }
    }

    /// Waits until every product handed over is decoded. Call once the parse
    /// has returned, before reading the stream.
    func waitUntilDone() {
        guard let queue else { return }
        submit()
        queue.sync {}
    }

    private func decode(_ item: YAMLNode) {
        guard let draft = ProductDecoder.draft(item, context: &context, references: &references) else {
            slots.append(.kept)
            return
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
