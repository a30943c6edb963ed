import StorekeeperCatalog
import StorekeeperCore

/// The decoder's rules for ids, names and values, as regular expressions
/// that JSON Schema validators run (ECMA-262 in editors, Python's `re` in
/// the tests): anchored, ASCII classes only (`[0-9]`, never `\d`), and no
/// flags, so both dialects read them alike.
///
/// Each mirrors a check in StorekeeperCatalog (`NamePatterns`, `Price`,
/// `ISOPeriod`, `ByteSize`, the URL and path checks); `PatternAgreementTests`
/// runs both on the same values.
enum ValuePatterns {
    /// A product id: 1 to 100 of `A-Z a-z 0-9 . _ -`.
    static let productID = #"^[A-Za-z0-9._-]{1,100}$"#

    /// A catalog name: 1 to 64 lower-case letters, digits and `-`.
    static let catalogName = #"^[a-z0-9-]{1,64}$"#

    /// Features, balances, groups, rules and steps: a letter, then letters,
    /// digits, `-`, `_` or `.`; at most 64 characters.
    static let name = #"^[A-Za-z][A-Za-z0-9._-]{0,63}$"#

    /// A bundle id: two or more dot-separated parts of letters, digits and `-`.
    static let bundleID = #"^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$"#

    /// A locale: a language, an optional script, an optional region.
    static let locale = #"^[a-z]{2,3}(?:-[A-Z][a-z]{3})?(?:-(?:[A-Z]{2}|[0-9]{3}))?$"#

    /// `major.minor`, major 1 to 99 and minor 0 to 99, each at most 18 digits
    /// (leading zeros allowed, as the decoder reads whole numbers).
    static let osVersion = #"^(?:0{0,17}[1-9]|0{0,16}[1-9][0-9])\.(?:0{0,17}[0-9]|0{0,16}[1-9][0-9])$"#

    /// A price written as text: digits, then at most two decimal places; at
    /// most 1,000,000 (leading zeros allowed, as `Price(parsing:)` reads them).
    static let price = #"^0*(?:[0-9]{1,6}(?:\.[0-9]{1,2})?|1000000(?:\.0{1,2})?)$"#

    /// The largest price, for prices written as numbers.
    static let maximumPrice = 1_000_000

    /// One number of an ISO 8601 period: at most 10,000, leading zeros allowed.
    private static let periodNumber = #"0*(?:10000|[0-9]{1,4})"#

    /// An ISO 8601 period of whole days, weeks, months and years, units in
    /// order, not adding up to zero (`P3M`, `P1Y6M`; not `PT12H`, `P0M`).
    static let period = "^P(?=[^1-9]*[1-9])" + ["Y", "M", "W", "D"].map { "(?:\(periodNumber)\($0))?" }.joined() + "$"

    /// Exactly the periods equal to one of `periods` as the decoder compares
    /// them (component by component: `P01W` and `P1W0D` are `P1W`, `P7D` is not).
    static func period(equalToAnyOf periods: [String]) -> String {
        let alternatives = periods.compactMap { text -> String? in
            guard case .success(let period) = ISOPeriod.parse(text) else { return nil }
            let components = [(period.years, "Y"), (period.months, "M"), (period.weeks, "W"), (period.days, "D")]
            return "P" + components.map { value, unit in value == 0 ? "(?:0+\(unit))?" : "0*\(value)\(unit)" }.joined()
        }
        return "^(?:" + alternatives.joined(separator: "|") + ")$"
    }

    /// A content size: a number (at most six decimal places), optional
    /// spaces, a unit; more than zero.
    static let size = "^(?=[^1-9]*[1-9])[0-9]+(?:\\.[0-9]{0,6})? *(?:" + ByteSize.units.map(\.name).joined(separator: "|") + ")$"

    /// A content path: relative (no leading `/` or `~`, no drive letter, not
    /// a URL), with `/` between folders (no `\`) and no control characters.
    /// Whether `..` climbs above the root is for the CLI (it needs counting).
    static let contentPath = #"^(?![/~])(?![^:]*://)(?![\x00-\x7F]:)(?![\s\S]*[\\\u0000-\u001F\u007F-\u009F])[\s\S]+$"#

    /// A server URL, by the runtime's rule (StorekeeperCore's `ServerURL`):
    /// https with a host, or http on the local machine only (`localhost` in
    /// any case, `127.0.0.1`, `[::1]`); printable ASCII without a backslash
    /// anywhere and no user name (`@`) before the host. The host is a name
    /// (labels of letters, digits, `-`, `_`; the last not a number), a
    /// dotted IPv4 address or an IPv6 address in brackets, then an optional
    /// port, 1 to 65535 without leading zeros. The scheme in any case, as
    /// `ServerURL` compares it.
    static let serverURL: String = {
        // Printable ASCII but for the backslash.
        let urlCharacter = #"[\x21-\x5B\x5D-\x7E]"#
        let port = #"(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?"#
        let rest = "(?:[/?#]" + urlCharacter + "*)?"
        let octet = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
        let ipv4 = octet + #"(?:\."# + octet + "){3}"
        // The last label is not a number (digits, or 0x and hexadecimal digits), which a browser reads as IPv4.
        let end = "(?:[:/?#]|$)"
        let lastLabel = "(?![0-9]+" + end + ")(?!0[xX][0-9A-Fa-f]*" + end + ")[A-Za-z0-9_-]+"
        let name = #"(?:[A-Za-z0-9_-]+\.)*"# + lastLabel
        let v6 = #"\[[0-9A-Fa-f:.]+\]"#
        let localHost = #"(?:[Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt]|127\.0\.0\.1|\[::1\])"#
        let https = #"[Hh][Tt][Tt][Pp][Ss]://"# + "(?:" + v6 + "|" + ipv4 + "|" + name + ")" + port + rest
        let http = #"[Hh][Tt][Tt][Pp]://"# + localHost + port + rest
        return "^(?:" + https + "|" + http + ")$"
    }()

    /// An include: a relative path to a `.yaml` or `.yml` file.
    static let includePath = #"^(?![/~])[\s\S]*\.ya?ml$"#

    /// A rule's product: a product id in which `*` stands for any run of
    /// characters; at most 100 characters besides the `*`s.
    static let productPattern = #"^\**(?:[A-Za-z0-9._-]\**){0,100}$"#
}
