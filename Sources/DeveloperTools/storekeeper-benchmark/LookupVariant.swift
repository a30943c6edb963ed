/// The four loops that every round of `storekeeper-benchmark lookups` times over the same transactions.
enum LookupVariant: Sendable, CaseIterable, CustomStringConvertible {
    /// A plan number worked out in advance, read from an array: the floor.
    case baseline
    /// `planIndex(for:state:error:)` by handle.
    case planIndexByHandle
    /// `plan(for:state:error:).steps.count` by handle.
    case planByHandle
    /// `product(id:)`, then `planIndex(for:state:error:)`.
    case planIndexByID

    var description: String {
        switch self {
        case .baseline: "baseline"
        case .planIndexByHandle: "planIndex by handle"
        case .planByHandle: "plan by handle"
        case .planIndexByID: "planIndex by id"
        }
    }

    /// What the loop does per transaction, as code, for the report.
    var code: String {
        switch self {
        case .baseline: "sum += planNumbers[i]"
        case .planIndexByHandle: "sum += policy.planIndex(for: handle, state: state, error: error)"
        case .planByHandle: "sum += policy.plan(for: handle, state: state, error: error).steps.count"
        case .planIndexByID: "policy.product(id: id).map { sum += policy.planIndex(for: $0, state: state, error: error) }"
        }
    }

    /// The order of the loops in the round numbered `round`, counting from 0: see
    /// ``RotatingOrder/order(of:inRound:)``.
    static func order(inRound round: Int) -> [LookupVariant] {
        RotatingOrder.order(of: allCases, inRound: round)
    }

    /// The sum this loop must arrive at over `workload`'s transactions.
    func expectedSum(of workload: LookupWorkload) -> Int {
        self == .planByHandle ? workload.stepCountSum : workload.planNumberSum
    }

    /// Runs the loop once over every transaction of `workload`, its inputs passed through
    /// ``Opaque/pass(_:)``, and returns its sum.
    func run(on workload: LookupWorkload) -> Int {
        switch self {
        case .baseline:
            LookupLoops.baseline(Opaque.pass(workload.planNumbers))
        case .planIndexByHandle:
            LookupLoops.planIndexByHandle(Opaque.pass(workload.policy), Opaque.pass(workload.transactions))
        case .planByHandle:
            LookupLoops.planByHandle(Opaque.pass(workload.policy), Opaque.pass(workload.transactions))
        case .planIndexByID:
            LookupLoops.planIndexByID(
                Opaque.pass(workload.policy), Opaque.pass(workload.transactions), Opaque.pass(workload.productIDs))
        }
    }
}
