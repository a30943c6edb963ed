/// How much of one grant a refund has taken back and, under the catalog's
/// `forgive` (`refunds.spent-balance`), let go because the balance no longer
/// held it. Their sum is the share the transaction's newest version asks for.
struct RefundSettlement: Equatable {
    /// Taken from the balance.
    var taken: Int
    /// Asked for, not taken, and never to be taken later (`forgive` only).
    var forgiven: Int

    /// The share settled so far.
    var total: Int { taken + forgiven }

    /// The settlement once the share asked for is `wanted`. Taking more takes all of it (`owe`:
    /// `holding` nil) or at most what the balance holds (`forgive`: `holding` is the balance's net);
    /// taking less lets go of the forgiven part first, then gives back what was taken.
    func settling(to wanted: Int, holding: Int?) -> RefundSettlement {
        if wanted >= total {
            let more = wanted - total
            let takes = holding.map { min(more, max(0, $0)) } ?? more
            return RefundSettlement(taken: taken + takes, forgiven: forgiven + more - takes)
        }
        let less = total - wanted
        let unforgiven = min(forgiven, less)
        return RefundSettlement(taken: taken - (less - unforgiven), forgiven: forgiven - unforgiven)
    }
}
