import StorekeeperDiagnostics
import StorekeeperYAML

/// The pairs a product's `<<` merge keys brought in from another mapping,
/// often another product's. A problem in one of them is reported where the
/// merged mapping wrote it, which says nothing of the products that received
/// it (and are left out of the catalog for it); so each such diagnostic gets
/// a note at the `<<` that brought it, naming the receiving product.
struct MergedPairs: Sendable {
    /// Each `<<` that brought pairs, with the places of the keys and values it brought.
    private var merges: [(site: SourceLocation, places: [SourceRange])] = []
    /// The note's text.
    private var message = ""

    /// No merged pairs: nothing to note.
    init() {}

    /// The pairs `<<` keys brought into `product`, a product mapping.
    init(_ product: YAMLNode) {
        let merges = product.merges
        guard !merges.isEmpty else { return }
        let pairs = product.pairs
        self.merges = merges.map { merge in
            (merge.site.start, merge.pairs.flatMap { [pairs[$0].key.range, pairs[$0].value.range] })
        }
        // The id as written, valid or not, is the name the author knows the
        // product by; one merged in is another product's.
        let ownID = pairs.indices.first { position in
            pairs[position].key.hasText("id") && !merges.contains { $0.pairs.contains(position) }
        }
        if let ownID, let id = pairs[ownID].value.text, !id.isEmpty {
            message = "merged into product '\(id)' here"
        } else {
            message = "merged into this product here"
        }
    }

    /// Adds the note to each diagnostic, from position `start` of
    /// `diagnostics` on, that is in a merged key or value.
    func note(_ diagnostics: inout DiagnosticList, from start: Int) {
        guard !merges.isEmpty else { return }
        diagnostics.update(from: start) { diagnostic in
            let location = diagnostic.location
            guard let merge = merges.first(where: { $0.places.contains { $0.contains(location) } }) else { return }
            diagnostic.notes.append(Diagnostic.Note(message, at: merge.site))
        }
    }
}
