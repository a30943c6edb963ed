/// The three programs that every round of the benchmark runs on the same catalog, and the order they run in.
enum MeasuredProgram: Sendable, CaseIterable, CustomStringConvertible {
    /// libyaml's bare event scan: `storekeeper-benchmark scan FILE`.
    case scan
    /// `storekeeper validate --no-policy`: the format checks alone.
    case formatOnly
    /// `storekeeper validate`: the format checks, then the policy rules.
    case validation

    var description: String {
        switch self {
        case .scan: "scan"
        case .formatOnly: "format only"
        case .validation: "validate"
        }
    }

    /// The order in which the programs run in the round numbered `round`, counting from 0.
    ///
    /// The order rotates from one round to the next: scan, format only, validate; then format only,
    /// validate, scan; then validate, scan, format only. So in every three rounds each program runs once
    /// first, once second and once last. Every other block of three rounds rotates the reverse order
    /// (validate, format only, scan), so that in every six rounds each program also runs before each other
    /// one as often as after it, and no per-round ratio of two programs leans on which of them went first.
    ///
    /// - Precondition: `round` is not negative.
    static func order(inRound round: Int) -> [MeasuredProgram] {
        precondition(round >= 0, "rounds are counted from 0")
        let base = (round / 3) % 2 == 0 ? allCases : Array(allCases.reversed())
        let shift = round % 3
        return Array(base[shift...] + base[..<shift])
    }
}
