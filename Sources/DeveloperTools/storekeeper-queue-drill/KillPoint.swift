import StorekeeperCore
import StorekeeperQueue

/// A place where a launch may kill itself: the queue's own fault points and
/// the drill's, inside the store, the custom step, the record stores and
/// the content download, so that kills land in the middle of a step and
/// between the store's finish and the journal's commit.
enum KillPoint: String, CaseIterable, Sendable {
    /// ``FaultPoint/beforeCommit``: steps ran, their effects are not committed.
    case beforeCommit
    /// ``FaultPoint/afterCommit``: committed, the store not yet told to finish.
    case afterCommit
    /// ``FaultPoint/beforeFinish``: about to call the store's finish.
    case beforeFinish
    /// ``FaultPoint/afterFinish``: the store finished; the journal does not say so yet.
    case afterFinish
    /// Inside the store's finish, before it writes anything.
    case storeFinishBefore
    /// Inside the store's finish, after half of the log line is written and flushed: a torn line.
    case storeFinishTorn
    /// Inside the store's finish, after the line is on the disk and before finish returns.
    case storeFinishAfter
    /// The `audit-log` step began and has returned nothing yet.
    case stepBefore
    /// The `audit-log` step made its effect; the queue has not received it.
    case stepAfter
    /// A record store is about to keep a record.
    case recordBefore
    /// A record store kept a record; the step that asked is not done in the journal.
    case recordAfter
    /// Hosted content is about to be downloaded.
    case downloadBefore
    /// Hosted content was downloaded; the step that asked is not done in the journal.
    case downloadAfter
    /// ``FaultPoint/beforeSpend``: a spend was checked; nothing of it is written.
    case beforeSpend
    /// ``FaultPoint/spendJournalled``: a spend is in the journal; the app has not heard.
    case spendJournalled
    /// ``FaultPoint/spendSent``: the iCloud store or the server took a spend; the journal says pending.
    case spendSent

    /// The drill's name for one of the queue's fault points.
    init(_ point: FaultPoint) {
        switch point {
        case .beforeCommit: self = .beforeCommit
        case .afterCommit: self = .afterCommit
        case .beforeFinish: self = .beforeFinish
        case .afterFinish: self = .afterFinish
        case .beforeSpend: self = .beforeSpend
        case .spendJournalled: self = .spendJournalled
        case .spendSent: self = .spendSent
        }
    }

    /// Every name, for usage messages.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
