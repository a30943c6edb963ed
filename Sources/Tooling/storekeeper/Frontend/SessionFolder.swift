import Foundation
import StorekeeperCommandLine
import StorekeeperTooling

/// The folder a `simulate` session writes in (each device's journal, user
/// defaults and downloads, the account's iCloud folder): `--state`, empty
/// and locked for the whole session, or a new temporary folder removed
/// afterwards.
struct SessionFolder {
    /// The folder's path.
    let path: String
    /// Whether the folder is the session's own, to be removed at the end.
    let isTemporary: Bool

    /// The lock file a session holds in its `--state` folder; left there
    /// afterwards (removing it would let two sessions lock two files of one name).
    static let lockName = ".storekeeper-simulate.lock"

    /// `--state` when given (made when absent, refused when not empty or in
    /// use), else a new temporary folder.
    static func make(state: String?) throws(CommandFailure) -> SessionFolder {
        let manager = FileManager.default
        if let state {
            try requireEmpty(state)
            do {
                try manager.createDirectory(atPath: state, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure(message: "cannot make --state \(state): \(error.localizedDescription)")
            }
            try lockSession(state)
            // Again under the lock: a session that started meanwhile may have filled it.
            try requireEmpty(state)
            return SessionFolder(path: state, isTemporary: false)
        }
        let path = manager.temporaryDirectory.appendingPathComponent("storekeeper-simulate-\(UUID().uuidString)").path
        do {
            try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(message: "cannot make a temporary folder: \(error.localizedDescription)")
        }
        return SessionFolder(path: path, isTemporary: true)
    }

    /// Removes a temporary folder; `--state` is kept, for the author to look at.
    func removeIfTemporary() {
        if isTemporary { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Refuses a `--state` folder with anything in it but the lock file.
    private static func requireEmpty(_ state: String) throws(CommandFailure) {
        if let contents = try? FileManager.default.contentsOfDirectory(atPath: state), contents.contains(where: { $0 != lockName }) {
            throw CommandFailure(message: "--state \(state) is not empty; give an empty or new folder (a session starts from nothing)")
        }
    }

    /// Takes an exclusive lock on `STATE/.storekeeper-simulate.lock` for the
    /// whole session (the descriptor stays open until the process exits),
    /// so that a second session on the same folder is refused instead of
    /// sharing its journals: each simulated launch takes and lets go of its
    /// journal's lock, which alone does not keep another session out.
    private static func lockSession(_ state: String) throws(CommandFailure) {
        let path = (state as NSString).appendingPathComponent(lockName)
        do throws(FileLock.Failure) {
            // Kept open, so held, until the process exits.
            _ = try FileLock.take(path)
        } catch .held {
            throw CommandFailure(message: "--state \(state) is in use by another storekeeper simulate session (it holds \(path)); wait for it to end, or give another folder")
        } catch .cannotOpen(let code) {
            throw CommandFailure(message: "cannot open the session's lock file \(path) (\(String(cString: strerror(code)))); give a folder the tool may write in")
        } catch {
            throw CommandFailure(message: "cannot lock the session's lock file \(path) (\(error.reason ?? "unknown error"))")
        }
    }
}
