public import Foundation
import StorekeeperQueue
import StorekeeperRuntime

/// Where the StoreKit 2 backend keeps its pending purchases across launches:
/// a small JSON file of its own, rewritten whole (atomically) at each change.
///
/// StoreKit 2 keeps no record of a pending purchase the app can read: after
/// a relaunch, an approval arrives on `Transaction.updates` (or in
/// `Transaction.unfinished`) with nothing but its product, quantity and
/// token. The file keeps each request's user, so that the approval is
/// delivered to the user who asked, and each completion, so that the same
/// approval delivered again completes nothing more.
public struct StoreKit2PendingPurchaseFile: Sendable, Hashable {
    /// The versions of the file this build reads; it writes the newest.
    public static let versions = 1...1

    /// The file.
    public var url: URL

    /// A file at `url`; nothing is read or written until asked; the first save makes its folder if needed.
    public init(url: URL) {
        self.url = url
    }

    /// What the file holds: no pending purchases when there is no file yet.
    /// - Throws: ``StoreKit2PendingPurchaseFileError`` when the file cannot be
    ///   read or holds something else (it is left as it is).
    public func load() throws(StoreKit2PendingPurchaseFileError) -> StoreKit2PendingPurchases {
        let bytes: [UInt8]
        do {
            guard let read = try AtomicFile.contents(of: url.path) else { return StoreKit2PendingPurchases() }
            bytes = read
        } catch {
            throw StoreKit2PendingPurchaseFileError(path: url.path, reason: "cannot be read (\(error.reason))")
        }
        let contents: Contents
        do {
            contents = try JSONDecoder().decode(Contents.self, from: Data(bytes))
        } catch {
            throw StoreKit2PendingPurchaseFileError(
                path: url.path, reason: "is not a Storekeeper pending-purchases file: expected JSON {\"version\": 1, \"purchases\": [...]} (\(error))")
        }
        guard Self.versions.contains(contents.version) else {
            throw StoreKit2PendingPurchaseFileError(
                path: url.path, reason: "has version \(contents.version); this build reads versions \(Self.versions.lowerBound) to \(Self.versions.upperBound)")
        }
        return StoreKit2PendingPurchases(contents.purchases)
    }

    /// Replaces what the file holds, atomically and durably (the queue's `AtomicFile`): a crash leaves the old
    /// file or the new, never half of one, and a request saved is on disk before the purchase is reported pending.
    /// - Throws: ``StoreKit2PendingPurchaseFileError`` when it cannot be written.
    public func save(_ pending: StoreKit2PendingPurchases) throws(StoreKit2PendingPurchaseFileError) {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            data = try encoder.encode(Contents(version: Self.versions.upperBound, purchases: pending.purchases))
        } catch {
            throw StoreKit2PendingPurchaseFileError(path: url.path, reason: "cannot be encoded (\(error))")
        }
        do {
            try AtomicFile.replace(url.path, with: Array(data))
        } catch {
            throw StoreKit2PendingPurchaseFileError(path: url.path, reason: "cannot be written (\(error.reason))")
        }
    }

    /// The file's JSON.
    private struct Contents: Codable {
        var version: Int
        var purchases: [StoreKit2PendingPurchase]
    }
}

/// Why the StoreKit 2 backend's pending-purchases file could not be read or written.
public struct StoreKit2PendingPurchaseFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong with it, and what would be right.
    public var reason: String

    /// Describes a failure.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// "StoreKit 2 pending purchases at PATH REASON".
    public var description: String { "StoreKit 2 pending purchases at \(path) \(reason)" }
}
