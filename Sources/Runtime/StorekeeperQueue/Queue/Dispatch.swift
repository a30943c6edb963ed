import Foundation
import StorekeeperCore
import StorekeeperRuntime

/// The journalled progress of one transaction in one situation: the plan's
/// steps as they were when the update arrived, and the first step not done.
struct Dispatch: Sendable {
    /// The transaction as the store reported it.
    var transaction: StoreTransaction
    /// `SituationSlot` of its state and error.
    var slot: Int
    /// Arrival order, for replay in order.
    var sequence: Int64
    /// The plan's step names.
    var steps: [String]
    /// The first step not done.
    var nextStep: Int
    /// Where the plan is.
    var status: DispatchStatus
    /// Failed attempts of the current step.
    var attempts: Int
    /// When a waiting step is tried again.
    var retryAt: Date?
    /// The last failure, for observers and for `pending`.
    var lastError: String?
    /// The plan's position in the policy (`PlanSteps`), when it came from
    /// the policy (not journalled: a replayed dispatch finds its plugins
    /// again by name).
    var plan: Int? = nil
    /// Whether the journal has its row (then a commit updates only its progress).
    var isJournalled = false

    var key: DispatchKey { DispatchKey(transactionID: transaction.id, slot: slot) }
    var rank: Int { StateRank.of(transaction.info.state) }
    var isFailedSituation: Bool { transaction.info.state == .failed }
}

/// A transaction in a situation: the journal's key.
struct DispatchKey: Hashable, Sendable {
    var transactionID: String
    var slot: Int
}

/// How far along a transaction's life a state is: an update whose state
/// ranks below one already seen for the transaction arrived out of order and
/// is ignored.
enum StateRank {
    static func of(_ state: TransactionState) -> Int {
        switch state {
        case .purchasing: 0
        case .deferred: 1
        case .purchased, .failed, .restored: 2
        }
    }
    /// The terminal rank: once a transaction reached it, nothing else applies.
    static let terminal = 2
}
