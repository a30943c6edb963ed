import StorekeeperCore
import StorekeeperPolicy

/// Shared phrasing for diagnostics about compiled plans.
enum PlanWording {
    /// " (and N more plans)" when a problem occurs in more than one plan.
    static func more(_ problem: PlanProblem) -> String {
        switch problem.planCount {
        case ...1: ""
        case 2: " (and 1 more plan)"
        default: " (and \(problem.planCount - 1) more plans)"
        }
    }
}
