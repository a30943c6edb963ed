import Foundation
import StorekeeperVerification

/// The in-process runs: each verifies payloads and reports how many it
/// accepted and how long it took.
enum VerificationRuns {
    struct Result {
        var count: Int
        var accepted: Int
        var duration: Duration
        /// The process's CPU time (every thread) over the run: on a shared machine, what the run itself cost.
        var cpuSeconds: Double
        var rate: Double { Double(count) / (Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18) }
        /// Verifications per second of CPU time.
        var cpuRate: Double { Double(count) / cpuSeconds }
    }

    /// The process's CPU time so far, in seconds (C's `clock`, every thread).
    static func cpuTime() -> Double {
        Double(clock()) / Double(CLOCKS_PER_SEC)
    }

    /// Times `body`, in wall-clock and CPU time.
    static func measure(count: Int, _ body: () async -> Int) async -> Result {
        let cpuStart = cpuTime()
        let start = ContinuousClock.now
        let accepted = await body()
        let duration = ContinuousClock.now - start
        return Result(count: count, accepted: accepted, duration: duration, cpuSeconds: max(cpuTime() - cpuStart, 1e-9))
    }

    static func verifier(root: [UInt8]) throws -> SignedDataVerifier {
        try SignedDataVerifier(trustedRoots: [root], bundleID: SignedCorpus.bundleID, environment: .sandbox)
    }

    /// A new verifier for every payload: the chain is verified each time (no cache), as a server's first payload is.
    static func uncached(_ payloads: ArraySlice<String>, root: [UInt8]) async -> Result {
        await measure(count: payloads.count) {
            var accepted = 0
            for jws in payloads where (try? await verifier(root: root).verifyTransaction(jws)) != nil {
                accepted += 1
            }
            return accepted
        }
    }

    /// One verifier, one task: every payload after the first reuses the chain verified.
    static func oneTask(_ payloads: [String], verifier: SignedDataVerifier) async -> Result {
        await measure(count: payloads.count) {
            var accepted = 0
            for jws in payloads where (try? await verifier.verifyTransaction(jws)) != nil {
                accepted += 1
            }
            return accepted
        }
    }

    /// One verifier shared by `tasks` tasks, each verifying every `tasks`-th payload.
    static func parallel(_ payloads: [String], verifier: SignedDataVerifier, tasks: Int) async -> Result {
        await measure(count: payloads.count) {
            await withTaskGroup(of: Int.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var accepted = 0
                        for index in stride(from: task, to: payloads.count, by: tasks)
                        where (try? await verifier.verifyTransaction(payloads[index])) != nil {
                            accepted += 1
                        }
                        return accepted
                    }
                }
                return await group.reduce(0, +)
            }
        }
    }
}
