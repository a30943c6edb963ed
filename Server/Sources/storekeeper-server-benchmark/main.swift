// storekeeper-server-benchmark: App Store signed transactions verified per second by
// StorekeeperVerification in process, against Apple's App Store Server Library for Python
// verifying the same payloads in the same run. docs/performance.md, "Verifying signed data
// (issue 18)", has the method and the figures. Build it in release: swift build -c release.

import Foundation

func format(_ rate: Double) -> String {
    String(Int(rate.rounded()))
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
        print("Swift, chain verified every time (new verifier per payload): \(format(uncached.rate))/s over \(uncached.count), \(uncached.accepted) accepted")

        let verifier = try VerificationRuns.verifier(root: root)
        let one = await VerificationRuns.oneTask(corpus.payloads, verifier: verifier)
        print("Swift, one task, chain cached: \(format(one.rate))/s over \(one.count), \(one.accepted) accepted")
        let parallel = await VerificationRuns.parallel(corpus.payloads, verifier: verifier, tasks: tasks)
        print("Swift, \(tasks) tasks, chain cached: \(format(parallel.rate))/s over \(parallel.count), \(parallel.accepted) accepted")

        guard one.accepted == one.count, parallel.accepted == parallel.count, uncached.accepted == uncached.count else {
            FileHandle.standardError.write(Data("the verifier refused payloads it must accept\n".utf8))
            return 1
        }
        if options.python {
            let python = try PythonVerifierTiming.run(payloads: Array(corpus.payloads.prefix(options.pythonPayloads)), root: root,
                                                      bundleID: SignedCorpus.bundleID)
            print("Python (app-store-server-library, online checks off): \(format(python.rate))/s over \(python.count), \(python.accepted) accepted")
            guard python.accepted == python.count else {
                FileHandle.standardError.write(Data("Apple's library refused payloads the verifier accepted\n".utf8))
                return 1
            }
            print("Ratio, one task / Python: \(String(format: "%.1f", one.rate / python.rate))x; \(tasks) tasks / Python: \(String(format: "%.1f", parallel.rate / python.rate))x")
            print("Ratio, uncached / Python: \(String(format: "%.1f", uncached.rate / python.rate))x")
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("storekeeper-server-benchmark: \(error)\n".utf8))
        return 1
    }
}

exit(await runBenchmark())
