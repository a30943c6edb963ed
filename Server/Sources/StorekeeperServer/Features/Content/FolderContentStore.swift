import Foundation
import NIOPosix

/// Content in a folder: `packs/level-2.zip` is the folder's `packs/level-2.zip`.
///
/// A path that leads outside the folder, by `..` or by a symbolic link that
/// points out, is not found: the resolved path must lie inside the folder's
/// resolved path, and it is the resolved path that is opened.
public struct FolderContentStore: ContentStore, CustomStringConvertible {
    /// Why a folder cannot serve content.
    public struct NotAFolder: Error, Sendable, Hashable, CustomStringConvertible {
        /// The path given.
        public var path: String
        public var description: String { "the content folder \(path) does not exist or is not a folder" }
    }

    /// The folder, symbolic links resolved.
    public let root: String

    /// Content in the folder at `path`.
    public init(path: String) throws(NotAFolder) {
        var isFolder: ObjCBool = false
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), isFolder.boolValue else { throw NotAFolder(path: path) }
        root = resolved
    }

    public func file(at segments: [String]) async throws -> ContentFile? {
        guard !segments.isEmpty, segments.allSatisfy(Self.isPlainName) else { return nil }
        let resolved = URL(fileURLWithPath: root).appendingPathComponent(segments.joined(separator: "/")).resolvingSymlinksInPath().path
        guard resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { return nil }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.int64Value
        else { return nil }
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let etag = "\"\(String(Int64((modified * 1000).rounded()), radix: 16))-\(size)\""
        return ContentFile(size: size, etag: etag) { offset, count in
            // A blocking read: on NIO's thread pool, never on a thread of the concurrency pool.
            try await NIOThreadPool.singleton.runIfActive {
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: resolved))
                defer { try? handle.close() }
                try handle.seek(toOffset: UInt64(offset))
                return Array(try handle.read(upToCount: count) ?? Data())
            }
        }
    }

    /// A name that stays in its folder: not empty, `.` or `..`, without `/` or NUL.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }

    public var description: String { "folder \(root)" }
}
