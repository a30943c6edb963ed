/// The order in which a benchmark runs its contenders in each round, rotating from round to round, so
/// that noise from the machine, and any advantage of going first or last, falls on every one alike.
enum RotatingOrder {
    /// The order of `contenders` in the round numbered `round`, counting from 0.
    ///
    /// With n contenders the order rotates by one each round: in every n rounds each runs once in
    /// each position. Every other block of n rounds rotates the reverse order, so that in every 2n
    /// rounds each contender also runs before each other one as often as after it, and no per-round
    /// ratio of two of them leans on which went first. For three contenders a, b, c: a b c, b c a,
    /// c a b, then c b a, b a c, a c b.
    ///
    /// - Precondition: `round` is not negative and `contenders` is not empty.
    static func order<Element>(of contenders: [Element], inRound round: Int) -> [Element] {
        precondition(round >= 0, "rounds are counted from 0")
        precondition(!contenders.isEmpty, "nothing to order")
        let count = contenders.count
        let base = (round / count) % 2 == 0 ? contenders : Array(contenders.reversed())
        let shift = round % count
        return Array(base[shift...] + base[..<shift])
    }
}
