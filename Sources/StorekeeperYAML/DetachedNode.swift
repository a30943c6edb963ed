extension YAMLNode {
    /// A copy of this node's subtree as a document of its own, whose root is
    /// the copy. A streamed item can then be decoded on another thread after
    /// the builder has dropped its nodes. Aliases inside are copied out (the
    /// parse already charged them to the expansion budget).
    package func detached() -> YAMLDocument {
        var records = RawArena<NodeRecord>(capacity: 64)
        var children = RawArena<Int32>(capacity: 64)
        var text = RawArena<UInt8>(capacity: 256)
        let source = storage
        /// Copies a node and what it contains; returns its new index.
        func copy(_ index: Int32) -> Int32 {
            var record = source.records[Int(index)]
            let newIndex = Int32(records.count)
            if record.kind == .scalar {
                let start = Int(record.first)
                record.first = Int32(text.count)
                text.append(contentsOf: UnsafeBufferPointer(rebasing: source.text[start..<start + Int(record.count)]))
                records.append(record)
            } else {
                records.append(record)
                let start = Int(record.first), count = Int(record.count)
                // Children first, so that their slots in `children` are contiguous.
                var copied: [Int32] = []
                copied.reserveCapacity(count)
                for position in start..<start + count { copied.append(copy(source.children[position])) }
                records[Int(newIndex)].first = Int32(children.count)
                copied.withUnsafeBufferPointer { children.append(contentsOf: $0) }
            }
            return newIndex
        }
        let root = copy(index)
        var tags: [Int32: String] = [:]
        if !source.tags.isEmpty {
            // Rare (explicit tags in a product): carried over by walking again.
            var pending: [(Int32, Int32)] = [(index, root)]
            while let (old, new) = pending.popLast() {
                if let tag = source.tags[old] { tags[new] = tag }
                let oldRecord = source.records[Int(old)], newRecord = records[Int(new)]
                if oldRecord.kind != .scalar {
                    for offset in 0..<Int(oldRecord.count) {
                        pending.append((source.children[Int(oldRecord.first) + offset], children[Int(newRecord.first) + offset]))
                    }
                }
            }
        }
        return YAMLDocument(
            file: source.file, records: records.finish(), text: text.finish(), children: children.finish(), tags: tags, rootIndex: root)
    }
}
