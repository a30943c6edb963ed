import StorekeeperCatalog
import StorekeeperCore

/// The names an imported catalog needs and a StoreKit configuration file
/// does not have: the catalog's name, its group keys, a bundle id.
enum ImportNaming {
    /// A catalog name from a file name: `Products_Dev.storekit` is
    /// `products-dev`. Lower-case letters and digits are kept, every other
    /// run of characters becomes one `-`, and the result has at most 64
    /// characters; `imported` when nothing is left.
    static func catalogName(fromFile path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        let slug = slug(name.lowercased(), keep: { $0.isASCII && ($0.isLowercase || $0.isNumber) }, limit: 64)
        return slug.isEmpty ? "imported" : slug
    }

    /// A placeholder bundle id for a catalog: `com.example.<name>`.
    static func placeholderBundleID(for catalogName: String) -> String { "com.example.\(catalogName)" }

    /// A valid group key for each group name, unique in order: `Silver
    /// Subscriptions` is `silver-subscriptions`, a second one
    /// `silver-subscriptions-2`. Keys start with a letter (`group-` is put in
    /// front otherwise) and keep letters, digits, `-`, `_` and `.`.
    static func groupKeys(for names: [String]) -> [String] {
        var used = Set<String>()
        return names.map { name in
            var key = slug(name.lowercased(), keep: { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_" || $0 == ".") }, limit: 56)
            if key.first.map({ !$0.isLetter }) ?? true { key = key.isEmpty ? "group" : "group-\(key)" }
            var unique = key
            var counter = 2
            while !used.insert(unique).inserted {
                unique = "\(key)-\(counter)"
                counter += 1
            }
            return unique
        }
    }

    /// `text` with the characters `keep` accepts, every other run of
    /// characters one `-`, no `-` at either end, at most `limit` characters.
    private static func slug(_ text: String, keep: (Character) -> Bool, limit: Int) -> String {
        var result = ""
        var pendingDash = false
        for character in text {
            if keep(character) {
                if pendingDash, !result.isEmpty { result.append("-") }
                pendingDash = false
                result.append(character)
            } else {
                pendingDash = true
            }
        }
        while result.count > limit { result.removeLast() }
        while result.last == "-" { result.removeLast() }
        return result
    }
}
