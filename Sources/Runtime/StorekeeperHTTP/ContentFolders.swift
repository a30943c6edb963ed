public import Foundation
public import StorekeeperCore

/// Where downloaded server content is kept, by the catalog's `storage`
/// (`ContentStorage`): `cache` content in a folder the system may purge
/// (then it is downloaded again), `documents` content in one that is kept
/// and, on Apple platforms, excluded from backups (it can be downloaded
/// again, so it should not take the user's iCloud space).
public struct ContentFolders: Sendable, Hashable {
    /// The folder for `storage: cache` (and content that names no storage).
    public var cache: URL
    /// The folder for `storage: documents`.
    public var documents: URL

    /// Content in two folders of the app's choosing.
    package init(cache: URL, documents: URL) {
        self.cache = cache
        self.documents = documents
    }

    /// Content below `root`, laid out as an app's container is:
    /// `root/Library/Caches/Storekeeper` and `root/Documents/Storekeeper`. An
    /// app passes its home folder (`NSHomeDirectory()`); a test, a scratch
    /// folder.
    public init(root: URL) {
        cache = root.appendingPathComponent("Library/Caches/Storekeeper", isDirectory: true)
        documents = root.appendingPathComponent("Documents/Storekeeper", isDirectory: true)
    }

    /// The folder for `storage`.
    public func folder(for storage: ContentStorage) -> URL {
        switch storage {
        case .cache: cache
        case .documents: documents
        }
    }
}
