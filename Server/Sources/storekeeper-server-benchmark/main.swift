// storekeeper-server-benchmark: App Store signed transactions verified per second by
// StorekeeperVerification in process, against Apple's App Store Server Library for Python
// verifying the same payloads in the same run. docs/performance.md, "Verifying signed data
// (issue 18)", has the method and the figures. Build it in release: swift build -c release.

import Foundation
import StorekeeperTestChain

func format(_ rate: Double) -> String {
    String(Int(rate.rounded()))
}

/// One run's figures: verifications per wall-clock second and per CPU second (the machine may be shared).
func line(_ name: String, _ rate: Double, _ cpuRate: Double, _ count: Int) -> String {
    "\(name): \(format(rate))/s wall-clock, \(format(cpuRate))/s of CPU time, over \(count)"
}

func ratio(_ ours: Double, _ theirs: Double) -> String {
    String(format: "%.1fx", ours / theirs)
}

func runBenchmark() async -> Int32 {
    let options: BenchmarkOptions
    do {
        options = try BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        return 2
    }
    do {
        let corpus = try SignedCorpus(count: options.payloads)
        let root = corpus.chain.rootDER
        let tasks = options.tasks ?? ProcessInfo.processInfo.activeProcessorCount
        print("Signed transactions: \(options.payloads), one chain; \(ProcessInfo.processInfo.activeProcessorCount) processors")

        let uncached = await VerificationRuns.uncached(corpus.payloads.prefix(min(1_000, options.payloads)), root: root)
        print(line("Swift, chain verified every time (new verifier per payload)", uncached.rate, uncached.cpuRate, uncached.count))

        let verifier = try VerificationRuns.verifier(root: root)
        let one = await VerificationRuns.oneTask(corpus.payloads, verifier: verifier)
        print(line("Swift, one task, chain cached", one.rate, one.cpuRate, one.count))
        let parallel = await VerificationRuns.parallel(corpus.payloads, verifier: verifier, tasks: tasks)
        print(line("Swift, \(tasks) tasks, chain cached", parallel.rate, parallel.cpuRate, parallel.count))

        guard one.accepted == one.count, parallel.accepted == parallel.count, uncached.accepted == uncached.count else {
            FileHandle.standardError.write(Data("the verifier refused payloads it must accept\n".utf8))
            return 1
        }
        if options.python {
            let python = try PythonVerifierTiming.run(payloads: Array(corpus.payloads.prefix(options.pythonPayloads)), root: root,
                                                      bundleID: SignedCorpus.bundleID)
            print(line("Python (app-store-server-library, online checks off)", python.rate, python.cpuRate, python.count))
            guard python.accepted == python.count else {
                FileHandle.standardError.write(Data("Apple's library refused payloads the verifier accepted\n".utf8))
                return 1
            }
            print("Ratio to Python, wall-clock: one task \(ratio(one.rate, python.rate)), \(tasks) tasks \(ratio(parallel.rate, python.rate)), uncached \(ratio(uncached.rate, python.rate))")
            print("Ratio to Python, CPU time: one task \(ratio(one.cpuRate, python.cpuRate)), uncached \(ratio(uncached.cpuRate, python.cpuRate))")
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("storekeeper-server-benchmark: \(error)\n".utf8))
        return 1
    }
}

exit(await runBenchmark())
