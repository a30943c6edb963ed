/// JSON pointers (RFC 6901).
package enum JSONPointer {
    /// A key as one reference token: `~` as `~0`, `/` as `~1`.
    package static func escape(_ key: String) -> String {
        var token = ""
        for character in key {
            switch character {
            case "~": token += "~0"
            case "/": token += "~1"
            default: token.append(character)
            }
        }
        return token
    }

    /// The pointer of a path of keys and indices.
    package static func pointer(_ path: [String]) -> String {
        path.map { "/" + escape($0) }.joined()
    }
}
