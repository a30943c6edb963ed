import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// A record store that may kill the process just before and just after the
/// store it wraps keeps a record: the second leaves a record kept outside
/// the journal by a step the journal does not know is done, which the next
/// launch keeps again (keeping is idempotent).
struct KillingRecordStore: RecordStore {
    let base: any RecordStore
    let killSwitch: KillSwitch

    func keep(_ record: StoredRecord) async throws(StepFailure) {
        killSwitch.reach(.recordBefore)
        try await base.keep(record)
        killSwitch.reach(.recordAfter)
    }

    func records() async throws(StepFailure) -> [StoredRecord] {
        try await base.records()
    }
}
