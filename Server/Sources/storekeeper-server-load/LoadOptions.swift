import ArgumentParser
import Foundation
import StorekeeperTestChain

/// `storekeeper-server-load`: verified purchases recorded per second through HTTP, and their
/// latency, against a `storekeeper-server serve` process it starts on loopback.
@main
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storekeeper-server-load",
        abstract: "Posts distinct signed purchases to a storekeeper-server on loopback from concurrent keep-alive clients, for a bounded time.",
        discussion: """
            Starts the storekeeper-server built beside this program (serve, on a free port of 127.0.0.1, trusting \
            a test chain's root), signs --transactions distinct consumable purchases (each for its own user, \
            with its own client token) before the clock starts, then posts them from --clients concurrent \
            clients over keep-alive connections for --seconds. Prints purchases recorded per second (answers \
            200) and the latency percentiles of every answer. docs/performance.md has the method and figures.
            """
    )

    @Option(help: ArgumentHelp("sqlite:PATH or a postgres:// URL. Default: a SQLite file in a temporary folder.", valueName: "database"))
    var database: String?

    @Option(help: "Concurrent clients, each one request at a time.")
    var clients = 32

    @Option(help: "How long the clients post, in seconds.")
    var seconds = 10

    @Option(help: "Distinct signed purchases made beforehand (the run stops early when they run out).")
    var transactions = 30_000

    @Option(name: .customLong("database-connections"), help: "PostgreSQL connections of the server.")
    var databaseConnections = 20

    @Option(help: ArgumentHelp("The storekeeper-server executable. Default: the one beside this program.", valueName: "path"))
    var server: String?

    func validate() throws {
        guard clients > 0, clients <= 1_024 else { throw ValidationError("--clients \(clients): give 1 to 1024") }
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds \(seconds): give 1 to 600") }
        guard transactions > 0 else { throw ValidationError("--transactions \(transactions): give a positive number") }
        guard databaseConnections > 0 else { throw ValidationError("--database-connections \(databaseConnections): give a positive number") }
    }

    func run() async throws {
        let executable = server ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("storekeeper-server").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw ValidationError("no storekeeper-server at \(executable); build it (swift build -c release --package-path Server) or give --server")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storekeeper-server-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        print("Signing \(transactions) purchases...")
        let purchases = try SignedPurchases(count: transactions)
        let root = folder.appendingPathComponent("root.der")
        try Data(purchases.chain.rootDER).write(to: root)

        let database = database ?? "sqlite:\(folder.appendingPathComponent("ledger.sqlite").path)"
        let process = try LoadServer(
            executable: executable, folder: folder, root: root.path, database: database, connections: databaseConnections,
            tokenSecret: SignedPurchases.tokenSecret)
        defer { process.stop() }
        let port = try await process.waitUntilListening()
        print("Server on 127.0.0.1:\(port), database \(LoadServer.redacted(database)); \(clients) clients for \(seconds) s")
        if database.hasPrefix("postgres") { print("PostgreSQL: \(DurabilityCheck.describe(database))") }

        let (serverBefore, ownBefore) = (process.cpuSeconds(), ProcessCPU.own())
        let result = try await LoadRun(port: port, clients: clients, duration: .seconds(seconds), purchases: purchases.requests).run()
        print(result.report)
        if let serverBefore, let serverAfter = process.cpuSeconds(), let ownBefore, let own = ProcessCPU.own(), result.recorded > 0 {
            let server = serverAfter - serverBefore
            print(String(
                format: "CPU during the run: server %.1f s (%.0f µs a purchase), this load program %.1f s; the database's is not counted",
                server, server * 1e6 / Double(result.recorded), own - ownBefore))
        }
        let outcome = process.stop()
        print("Server stopped: \(outcome)")
    }
}
