/// The programs that every round of `storekeeper-benchmark run` runs on the same catalog, and the order
/// they run in.
enum MeasuredProgram: Sendable, CaseIterable, CustomStringConvertible {
    /// libyaml's bare event scan: `storekeeper-benchmark scan FILE`.
    case scan
    /// `storekeeper validate --no-policy`: the format checks alone.
    case formatOnly
    /// `storekeeper validate`: the format checks, then the policy rules.
    case validation
    /// `storekeeper compile FILE --output POLICY`: validation, then the dispatch table, written as JSON.
    case compilation

    var description: String {
        switch self {
        case .scan: "scan"
        case .formatOnly: "format only"
        case .validation: "validate"
        case .compilation: "compile"
        }
    }

    /// The order in which the programs run in the round numbered `round`, counting from 0: see
    /// ``RotatingOrder/order(of:inRound:)``. With four programs, in every four rounds each runs once
    /// in each position, and in every eight each runs before each other one as often as after it.
    ///
    /// - Precondition: `round` is not negative.
    static func order(inRound round: Int) -> [MeasuredProgram] {
        RotatingOrder.order(of: allCases, inRound: round)
    }
}
