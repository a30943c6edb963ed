import Foundation
import StorekeeperCore
import StorekeeperRuntime

/// Refunds, Family Sharing revocations and their reversals.
extension TransactionQueue {
    /// Journals a revocation, removing what its transactions delivered, then
    /// publishes the entitlements if they changed and tells observers (only
    /// the first time: a revocation journalled already changes nothing).
    func revoke(_ revocation: StoreRevocation) async {
        // At once, whatever the journal says below: from now on nothing of
        // these transactions is delivered, in this launch at least.
        revoked.formUnion(revocation.transactionIDs)
        for id in revocation.transactionIDs {
            partialRevocations[id] = revocation.share < StoreRevocation.whole ? revocation.share : nil
        }
        let isNew: Bool
        do {
            isNew = try journal.revoke(revocation, ledger: &ledger)
        } catch {
            await resendLater(.revoked(revocation), journalFailed: error)
            return
        }
        mergeElsewhere()
        publishIfChanged()
        if isNew { await tell([.revoked(revocation)]) }
    }

    /// Journals a reversed refund: what the revocation took of each balance
    /// comes back at once, and the transactions' delivering steps run again
    /// (with the rest of the batch) to give back their ownership, features,
    /// records and content. A crash after the journal has it resumes those
    /// steps at the next start, as any open plan.
    func reinstate(_ reinstatement: StoreReinstatement) async {
        let result: (transactionIDs: [String], dispatches: [Dispatch])
        do {
            result = try journal.reinstate(reinstatement, after: sequence, ledger: &ledger)
        } catch {
            await resendLater(.reinstated(reinstatement), journalFailed: error)
            return
        }
        guard !result.transactionIDs.isEmpty else { return }
        revoked.subtract(result.transactionIDs)
        for id in result.transactionIDs { partialRevocations[id] = nil }
        for dispatch in result.dispatches {
            sequence = max(sequence, dispatch.sequence)
            open[dispatch.key] = dispatch
            if !replay.contains(dispatch.key) { replay.append(dispatch.key) }
        }
        mergeElsewhere()
        publishIfChanged()
    }
}
