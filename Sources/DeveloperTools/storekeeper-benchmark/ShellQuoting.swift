/// Quoting for POSIX shells, so that a command printed in a report can be pasted back into a terminal.
enum ShellQuoting {
    /// `word` as a shell reads it: unchanged when it holds only safe characters, otherwise in single quotes.
    static func quote(_ word: String) -> String {
        let safe = word.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "-_./=,:+@%".utf8.contains(byte)
            }
        }
        if safe && !word.isEmpty { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
