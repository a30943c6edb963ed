/// What `supervise` prints: how many launches died of SIGKILL and how, the
/// reference report, the crashed run's final report, and whether they are equal.
struct SupervisorSummary: Encodable {
    /// Launches that died of SIGKILL.
    var kills: Int
    /// Launches of the crashed run, every round's, the final one included (not the reference).
    var launches: Int
    /// Kills sent by the supervisor's timer.
    var timerKills: Int
    /// Kills the child sent itself at a kill point.
    var selfKills: Int
    /// How many self-kills happened at each kill point.
    var selfKillPoints: [String: Int]
    /// Fresh state folders used: a round ends when a launch completes while
    /// kills are still owed (its report equal to the reference, or the drill stops).
    var rounds: Int
    /// Launches that exited with work left (status 3).
    var incomplete: Int
    /// The longest timer delay used, in milliseconds.
    var maxDelayMilliseconds: Int
    /// Wall time of the whole supervision, in seconds.
    var seconds: Double
    var reference: DrillReport
    var final: DrillReport
    var equal: Bool
}
