import StorekeeperSimulatedStore
/// Reads the argument of `advance`: ISO 8601 (`P1Y2M3W4DT5H6M7S`) or a
/// number with one unit (`90s`, `15m`, `36h`, `3d`, `2w`).
///
/// Weeks count 7 days into `days`; hours, minutes and seconds count into
/// `seconds`. Each number has at most 9 digits, so that no sum overflows; the
/// 100-year limit on all advances together is `ScenarioCheck`'s.
enum ScenarioDurationParser {
    /// Why a text is not a duration: a sentence for the message.
    enum Failure: Error, Hashable {
        /// Not a duration at all; the text says why, or is empty.
        case malformed(String)
        /// Adds up to nothing.
        case zero
        /// A number with more than 9 digits.
        case tooLarge
    }

    /// The accepted forms, for messages.
    static let forms = "ISO 8601 such as P1M, P2W or PT36H, or a number with s, m, h, d or w such as 90s, 15m, 36h, 3d, 2w"

    /// The largest number in one part.
    static let maxNumber = 999_999_999

    /// Parses either form; the duration keeps `text` as its spelling, for the trace to echo.
    static func parse(_ text: String) -> Result<ScenarioDuration, Failure> {
        read(text).map { duration in
            var written = duration
            written.spelling = text
            return written
        }
    }

    private static func read(_ text: String) -> Result<ScenarioDuration, Failure> {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first else { return .failure(.malformed("")) }
        if first == "P" { return parseISO(scalars) }
        if first == "p" { return .failure(.malformed("ISO 8601 durations are written in capitals: \(text.uppercased())")) }
        return parseShorthand(scalars)
    }

    /// `90s`, `15m`, `36h`, `3d`, `2w`.
    private static func parseShorthand(_ scalars: [Unicode.Scalar]) -> Result<ScenarioDuration, Failure> {
        var digits = 0
        var value = 0
        for scalar in scalars {
            guard let digit = digit(scalar) else { break }
            digits += 1
            if digits > 9 { return .failure(.tooLarge) }
            value = value * 10 + digit
        }
        guard digits > 0 else { return .failure(.malformed("")) }
        let rest = scalars[digits...]
        guard rest.count == 1, let unit = rest.first else {
            if rest.isEmpty { return .failure(.malformed("a number needs a unit: write \(value)s, \(value)m, \(value)h, \(value)d or \(value)w")) }
            if rest.first == "." || rest.first == "," { return .failure(.malformed("only whole numbers are accepted; write 90m rather than 1.5h")) }
            return .failure(.malformed(""))
        }
        var duration = ScenarioDuration()
        switch unit {
        case "s": duration.seconds = value
        case "m": duration.seconds = value * 60
        case "h": duration.seconds = value * 3_600
        case "d": duration.days = value
        case "w": duration.days = value * 7
        case "S", "H", "D", "W":
            return .failure(.malformed("the unit is written in lower case: \(value)\(String(unit).lowercased())"))
        case "M":
            return .failure(.malformed("write m for minutes, or P\(value)M for months"))
        case "y", "Y":
            return .failure(.malformed("years are written in ISO 8601: P\(value)Y"))
        default:
            return .failure(.malformed(""))
        }
        return isZero(duration) ? .failure(.zero) : .success(duration)
    }

    /// `P1Y2M3W4DT5H6M7S`: date parts in the order Y, M, W, D, then `T` and
    /// time parts in the order H, M, S; at least one part, each once.
    private static func parseISO(_ scalars: [Unicode.Scalar]) -> Result<ScenarioDuration, Failure> {
        let dateUnits: [Unicode.Scalar] = ["Y", "M", "W", "D"]
        let timeUnits: [Unicode.Scalar] = ["H", "M", "S"]
        var duration = ScenarioDuration()
        var inTime = false
        var order = -1
        var number: Int?
        var digits = 0
        var parts = 0
        var partsAfterT = 0
        for scalar in scalars.dropFirst() {
            if let digit = digit(scalar) {
                digits += 1
                if digits > 9 { return .failure(.tooLarge) }
                number = (number ?? 0) * 10 + digit
                continue
            }
            if scalar == "T" {
                guard !inTime, number == nil else { return .failure(.malformed("")) }
                inTime = true
                order = -1
                continue
            }
            if scalar == "." || scalar == "," { return .failure(.malformed("only whole numbers are accepted; write PT90M rather than PT1.5H")) }
            guard let value = number else { return .failure(.malformed("")) }
            let units = inTime ? timeUnits : dateUnits
            guard let position = units.firstIndex(of: scalar) else {
                if !inTime, scalar == "H" || scalar == "S" {
                    return .failure(.malformed("hours, minutes and seconds come after T: PT\(value)\(scalar)"))
                }
                return .failure(.malformed(""))
            }
            guard position > order else { return .failure(.malformed("the parts go in the order Y, M, W, D, then T and H, M, S, each once")) }
            order = position
            switch (inTime, scalar) {
            case (false, "Y"): duration.years = value
            case (false, "M"): duration.months = value
            case (false, "W"): duration.days += value * 7
            case (false, _): duration.days += value
            case (true, "H"): duration.seconds += value * 3_600
            case (true, "M"): duration.seconds += value * 60
            default: duration.seconds += value
            }
            number = nil
            digits = 0
            parts += 1
            if inTime { partsAfterT += 1 }
        }
        guard number == nil else { return .failure(.malformed("a number needs a unit after it (Y, M, W, D, or after T: H, M, S)")) }
        guard !inTime || partsAfterT > 0 else { return .failure(.malformed("T must be followed by hours, minutes or seconds, as in PT36H")) }
        guard parts > 0 else { return .failure(.malformed("")) }
        return isZero(duration) ? .failure(.zero) : .success(duration)
    }

    private static func digit(_ scalar: Unicode.Scalar) -> Int? {
        guard ("0"..."9").contains(scalar) else { return nil }
        return Int(scalar.value - 48)
    }

    private static func isZero(_ duration: ScenarioDuration) -> Bool {
        duration.years == 0 && duration.months == 0 && duration.days == 0 && duration.seconds == 0
    }
}
