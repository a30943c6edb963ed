import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// The spends a complete launch makes once everything is delivered: the
/// same list (keys, balances, amounts) for one seed in every launch, so that
/// a launch killed in the middle of them and launched again re-issues each
/// with its key, and the final answers equal a run that never crashed.
///
/// Amounts are drawn so that most spends go through, and the last spend of
/// each balance asks more than any balance holds (refused, nothing spent). Each answer is
/// `spent A BALANCE, left N` or `refused A BALANCE: insufficient-balance`;
/// any other refusal, a negative remainder, or an overdrawn balance fails
/// the launch.
struct DrillSpends: Sendable {
    /// One spend: its key, balance and amount.
    struct Spend: Sendable {
        var key: String
        var balance: String
        var amount: Int
    }

    let spends: [Spend]

    /// `count` spends over the policy's balances, from `seed`.
    init(policy: CompiledPolicy, seed: UInt64, count: Int) {
        var generator = SplitMix64(seed: seed ^ 0x5350_454E_44)
        // The largest grant of a purchase to each balance bounds what one spend asks.
        var largest: [String: Int] = [:]
        for product in policy.products {
            for grant in product.grants { largest[grant.balance] = max(largest[grant.balance] ?? 0, grant.amount * product.maxQuantity) }
        }
        let balances = largest.keys.sorted()
        var spends: [Spend] = []
        if !balances.isEmpty {
            for index in 0..<count {
                let balance = balances[generator.next(below: balances.count)]
                let amount = generator.next(in: 1...max(1, (largest[balance] ?? 1) / 2))
                spends.append(Spend(key: "drill-spend-\(index)", balance: balance, amount: amount))
            }
        }
        // Last, more than any balance holds: refused, whatever came before.
        for balance in balances { spends.append(Spend(key: "drill-spend-all-\(balance)", balance: balance, amount: 1_000_000_000)) }
        self.spends = spends
    }

    /// Makes every spend in order; returns each answer by key.
    func run(on queue: TransactionQueue) async throws(DrillError) -> [String: String] {
        var answers: [String: String] = [:]
        for spend in spends {
            let left: Int
            do throws(SpendError) {
                left = try await queue.spend(spend.amount, of: spend.balance, key: spend.key)
            } catch .insufficientBalance {
                answers[spend.key] = "refused \(spend.amount) \(spend.balance): insufficient-balance"
                continue
            } catch {
                throw DrillError.message("spend \(spend.key) of \(spend.amount) \(spend.balance) failed: \(error)")
            }
            guard left >= 0 else { throw DrillError.message("spend \(spend.key) left \(left) \(spend.balance): below zero") }
            answers[spend.key] = "spent \(spend.amount) \(spend.balance), left \(left)"
        }
        let overdrawn = await queue.entitlements().overdrawn
        guard overdrawn.isEmpty else { throw DrillError.message("balances overdrawn after the spends: \(overdrawn)") }
        return answers
    }
}
