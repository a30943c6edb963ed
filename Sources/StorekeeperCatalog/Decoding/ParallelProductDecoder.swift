import Dispatch
import StorekeeperDiagnostics
import StorekeeperYAML
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes a long `products` list on every core: products decode
/// independently from an immutable document, so the list is cut into
/// contiguous chunks decoded at once, and the results are handed back in
/// file order so that uniqueness checks and diagnostics read exactly as a
/// sequential decode would produce them.
enum ParallelProductDecoder {
    /// Below this many products a second thread costs more than it saves.
    static let threshold = 1_000

    /// The decoded entries of each chunk, in order, with each chunk's
    /// diagnostics and references.
    struct Chunk: Sendable {
        var products: [DecodedProduct] = []
        var diagnostics: [Diagnostic] = []
        var references: [ReferenceUse] = []
    }

    static func decode(_ items: YAMLNode.Items, defaults: Defaults) -> [Chunk] {
        let workers = max(1, min(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        let count = items.count
        let chunkCount = count >= threshold ? workers : 1
        let results = ChunkResults(count: chunkCount)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let start = count * chunk / chunkCount
            let end = count * (chunk + 1) / chunkCount
            var context = DecodingContext()
            var result = Chunk()
            result.products.reserveCapacity(end - start)
            for index in start..<end {
                result.products.append(ProductDecoder.decode(items[index], defaults: defaults, context: &context, references: &result.references))
            }
            result.diagnostics = context.diagnostics
            results.store(result, at: chunk)
        }
        return results.take()
    }
}

/// One slot per chunk, each written by exactly one worker and read only
/// after `concurrentPerform` has returned, which orders the writes before the
/// reads; the lock makes that ordering explicit to the memory model.
private final class ChunkResults: @unchecked Sendable {
    private var slots: [ParallelProductDecoder.Chunk]
    private var lock = pthread_mutex_t()

    init(count: Int) {
        slots = Array(repeating: ParallelProductDecoder.Chunk(), count: count)
        pthread_mutex_init(&lock, nil)
    }

    deinit { pthread_mutex_destroy(&lock) }

    func store(_ chunk: ParallelProductDecoder.Chunk, at index: Int) {
        pthread_mutex_lock(&lock)
        slots[index] = chunk
        pthread_mutex_unlock(&lock)
    }

    func take() -> [ParallelProductDecoder.Chunk] {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return slots
    }
}
