import Foundation
import Testing
import StorekeeperCore
import StorekeeperPlatform

/// `simulate --state DIR` holds a lock in DIR for the whole session: a
/// second session on the same folder is refused with exit 2 instead of
/// sharing its journals (docs/simulate.md, The session). The test process
/// holds the lock itself, so that nothing depends on two runs' timing.
@Suite("simulate --state lock")
struct SimulateStateLockTests {
    static let lockName = ".storekeeper-simulate.lock"

    @Test("a session on a --state folder another session holds is refused with exit 2, and nothing runs")
    func heldFolderIsRefused() async throws {
        let workspace = try Workspace()
        let session = workspace.url.appendingPathComponent("session")
        try FileManager.default.createDirectory(at: session, withIntermediateDirectories: true)
        let lock = session.appendingPathComponent(Self.lockName).path
        let descriptor = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)

        let refused = try await CLI.run(["simulate", "--quiet", "--state", session.path, SimulateCommandTests.catalog, SimulateCommandTests.shipped],
                                        in: PackagePaths.root)
        #expect(!refused.signaled && refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("in use") && refused.stderr.contains(lock), "says why and names the lock: \(refused)")
        #expect(refused.stdout == "", "nothing ran: \(refused.stdout.prefix(300))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: session.path) == [Self.lockName], "nothing was written beside the lock")

        close(descriptor)
        let after = try await CLI.run(["simulate", "--quiet", "--state", session.path, SimulateCommandTests.catalog, SimulateCommandTests.shipped],
                                      in: PackagePaths.root)
        #expect(after.status == 0, "once the lock is let go, the folder (holding only the lock file) is used: \(after)")
        #expect(FileManager.default.fileExists(atPath: session.appendingPathComponent("phone/journal.sqlite").path))
    }

    @Test("a link planted at the lock's name is not followed")
    func plantedLinkIsNotFollowed() async throws {
        let workspace = try Workspace()
        let session = workspace.url.appendingPathComponent("session")
        try workspace.link("session/\(Self.lockName)", to: "../elsewhere")
        let refused = try await CLI.run(["simulate", "--quiet", "--state", session.path, SimulateCommandTests.catalog, SimulateCommandTests.shipped],
                                        in: PackagePaths.root)
        #expect(!refused.signaled && refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains(Self.lockName), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("elsewhere").path), "nothing was created through the link")
    }
}
