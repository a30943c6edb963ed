import StorekeeperChildProcess

/// What PostgreSQL says of its commits' durability, through `psql` when it is on the PATH: the
/// figures are for durable commits only, and the report says so from the server itself.
enum DurabilityCheck {
    static func describe(_ url: String) -> String {
        do {
            let outcome = try ChildProcess(
                "psql", [url, "-At", "-c", "SELECT name || '=' || setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'wal_sync_method', 'commit_delay') ORDER BY name"],
                standardOutput: .capture(limit: 1 << 16), standardError: .capture(limit: 1 << 16)
            ).run(timeout: .seconds(30))
            guard outcome.termination == .exited(0) else { return "not checked (psql: \(outcome.termination))" }
            return String(decoding: outcome.standardOutput, as: UTF8.self).split(separator: "\n").joined(separator: ", ")
        } catch {
            return "not checked (no psql: \(error))"
        }
    }
}
