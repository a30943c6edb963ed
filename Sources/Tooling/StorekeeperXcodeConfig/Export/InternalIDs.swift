/// Internal ids for what a catalog adds to a StoreKit configuration file:
/// eight upper-case hexadecimal digits, like Xcode's, made from what the id
/// is for (`product:com.example.coins`), so that exporting the same catalog
/// twice gives the same file. Ids already in use (the base file's) are never
/// given again.
struct InternalIDs {
    private var used: Set<String>

    init(used: Set<String> = []) {
        self.used = used
    }

    /// The id for `kind` and `name`: FNV-1a of `kind:name`, hashed again with
    /// a counter while it collides with one in use.
    mutating func make(_ kind: String, _ name: String) -> String {
        var attempt = 0
        while true {
            let seed = attempt == 0 ? "\(kind):\(name)" : "\(kind):\(name)#\(attempt)"
            let id = Self.hex(Self.fnv1a(seed))
            if used.insert(id).inserted { return id }
            attempt += 1
        }
    }

    /// Marks an id as taken.
    mutating func reserve(_ id: String) { used.insert(id) }

    static func fnv1a(_ text: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
