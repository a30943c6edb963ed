import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StorekeeperCore
import StorekeeperPlatform
import StorekeeperRuntime

/// One download of server-delivered content, `GET /v1/content/{path}`,
/// resumable (docs/server-contract.md#get-v1contentpath):
///
/// - The bytes go to `NAME.partial` beside the destination, and the answer's
///   `ETag` to `NAME.partial.etag`. A download that was cut off (the
///   connection lost, the app stopped) leaves both, and the next attempt asks
///   for the rest with `Range: bytes=N-` and `If-Range: ETAG`.
/// - A 206 appends; a 200 (the file changed, or the server ignores ranges)
///   starts the partial file over; a 416, or a 206 whose ETag or start is not
///   what was asked for, discards the partial file and asks again from the
///   start, once.
/// - The size is checked: against the catalog's `content.size` when it
///   states one (a different `Content-Length`, or more bytes than that,
///   refuses the file permanently, and the partial file is removed), else
///   against the answer's `Content-Length` or `Content-Range` total.
/// - The finished file is renamed into place (atomic: the destination is
///   either absent or whole), and the partial file's ETag removed. A
///   destination already there (of the stated size, when one is stated) is
///   the answer, with no request.
///
/// The body streams through URLSession's data delegate into the file: what
/// is held in memory is one piece as URLSession delivers it (tens of KiB),
/// not the file. (FoundationNetworking on Linux has no `bytes(for:)`.)
struct ContentDownload {
    let transport: HTTPServerTransport
    let path: String
    let storage: ContentStorage
    let expectedSize: Int64?

    func run() async throws(StepFailure) -> String {
        let segments = try checkedSegments()
        let request = ServerRequest(method: "GET", path: ServerPath.content(segments),
                                    headers: ["Accept": "*/*"])
        let name = "\(request.method) \(request.path)"
        var destination = transport.content.folder(for: storage)
        for segment in segments { destination.appendPathComponent(segment) }
        let files = PartialFiles(destination: destination)
        if let size = files.size(of: destination) {
            if expectedSize == nil || size == expectedSize { return destination.path }
            try files.remove(destination, name: name)
        }
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .transient("\(name): cannot make the folder \(destination.deletingLastPathComponent().path): \(error.localizedDescription)")
        }
        // A second try only after the server said the partial file is stale.
        for _ in 0..<2 {
            let resume = files.resumePoint()
            var ranged = request
            if let resume {
                ranged.headers["Range"] = "bytes=\(resume.offset)-"
                ranged.headers["If-Range"] = resume.etag
            } else {
                try files.discard(name: name)
            }
            let urlRequest = try await transport.urlRequest(for: ranged)
            let sink = DownloadSink(files: files, resume: resume, expectedSize: expectedSize, name: name)
            let outcome = await transport.perform(urlRequest, into: sink)
            sink.close()
            switch outcome {
            case .finished(let response):
                guard sink.isWriting else {
                    let answer = ServerResponse(status: response.statusCode, body: sink.errorBody)
                    throw answer.failure(for: request, doing: "send the content '\(path)'")
                        ?? .permanent("\(name): the server answered \(response.statusCode) with no content")
                }
                return try finish(sink, files: files, destination: destination, name: name)
            case .refused(let failure):
                if sink.startsOver || sink.discards { try files.discard(name: name) }
                if sink.startsOver { continue }
                throw failure
            case .failed(let error, _):
                let progress = sink.isWriting ? " after \(sink.written) of \(sink.total.map(String.init) ?? "?") bytes (kept; the download resumes from there)" : ""
                throw .transient("\(name): \(HTTPServerTransport.describe(error, timeout: transport.timeout))\(progress)")
            }
        }
        throw .transient("\(name): the server's file changed twice during the download; tried again later")
    }

    /// The file is whole: check its size, then move it into place.
    private func finish(_ sink: DownloadSink, files: PartialFiles, destination: URL, name: String) throws(StepFailure) -> String {
        if let wanted = expectedSize ?? sink.total, sink.written != wanted {
            // Fewer bytes than announced: the answer was cut short; the rest is asked for next time.
            throw .transient("\(name): the answer ended after \(sink.written) of \(wanted) bytes (kept; the download resumes from there)")
        }
        guard rename(files.partial.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw .transient("\(name): cannot move the download into place at \(destination.path): \(reason)")
        }
        try? FileManager.default.removeItem(at: files.etag)
        #if canImport(Darwin)
        if storage == .documents {
            // Kept, but not backed up: it can be downloaded again.
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            var url = destination
            try? url.setResourceValues(values)
        }
        #endif
        return destination.path
    }

    /// The content path's segments, refusing what would leave the folder.
    private func checkedSegments() throws(StepFailure) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !path.isEmpty, segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") }) else {
            throw .permanent("the content path '\(path)' must be segments separated by single '/', none of them empty, '.' or '..'")
        }
        return segments
    }
}

/// The partial file of a download and its ETag, beside the destination.
struct PartialFiles {
    let partial: URL
    let etag: URL

    init(destination: URL) {
        partial = destination.deletingLastPathComponent().appendingPathComponent(destination.lastPathComponent + ".partial")
        etag = destination.deletingLastPathComponent().appendingPathComponent(destination.lastPathComponent + ".partial.etag")
    }

    /// Where an earlier attempt stopped, when it left bytes and their ETag.
    func resumePoint() -> (offset: Int64, etag: String)? {
        guard let size = size(of: partial), size > 0,
              let data = FileManager.default.contents(atPath: etag.path), let tag = String(data: data, encoding: .utf8), !tag.isEmpty
        else { return nil }
        return (size, tag)
    }

    func size(of url: URL) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return (attributes[.size] as? NSNumber)?.int64Value
    }

    /// Removes the partial file and its ETag.
    func discard(name: String) throws(StepFailure) {
        try remove(partial, name: name)
        try remove(etag, name: name)
    }

    func remove(_ url: URL, name: String) throws(StepFailure) {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw .transient("\(name): cannot remove \(url.path): \(error.localizedDescription)")
        }
    }
}

/// Writes a content answer into the partial file, as it arrives.
final class DownloadSink: HTTPBodySink {
    let files: PartialFiles
    let resume: (offset: Int64, etag: String)?
    let expectedSize: Int64?
    let name: String
    /// The bytes in the partial file.
    private(set) var written: Int64 = 0
    /// The file's whole size, as the answer states it.
    private(set) var total: Int64?
    /// Whether the answer is content (200 or 206) being written.
    private(set) var isWriting = false
    /// Whether the partial file is stale and the download asks again from the start.
    private(set) var startsOver = false
    /// Whether the refusal also removes the partial file (a wrong size).
    private(set) var discards = false
    /// The body of an answer that is not content (an error), bounded.
    private(set) var errorBody: [UInt8] = []
    private var handle: FileHandle?

    init(files: PartialFiles, resume: (offset: Int64, etag: String)?, expectedSize: Int64?, name: String) {
        self.files = files
        self.resume = resume
        self.expectedSize = expectedSize
        self.name = name
    }

    func begin(_ response: HTTPURLResponse) -> StepFailure? {
        let etag = response.value(forHTTPHeaderField: "ETag")
        switch response.statusCode {
        case 206:
            guard let resume, let range = ContentRange(response.value(forHTTPHeaderField: "Content-Range")),
                  range.start == resume.offset, etag == nil || etag == resume.etag
            else { return startOver() }
            total = range.total
            written = resume.offset
            do {
                let handle = try FileHandle(forWritingTo: files.partial)
                try handle.truncate(atOffset: UInt64(resume.offset))
                try handle.seek(toOffset: UInt64(resume.offset))
                self.handle = handle
            } catch {
                return startOver()
            }
        case 200:
            total = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
            guard FileManager.default.createFile(atPath: files.partial.path, contents: nil),
                  let handle = FileHandle(forWritingAtPath: files.partial.path)
            else { return .transient("\(name): cannot write \(files.partial.path)") }
            self.handle = handle
            do {
                // Without an ETag a cut-off download cannot be resumed safely: it starts over.
                if let etag {
                    try Data(etag.utf8).write(to: files.etag, options: .atomic)
                } else if FileManager.default.fileExists(atPath: files.etag.path) {
                    try FileManager.default.removeItem(at: files.etag)
                }
            } catch {
                return .transient("\(name): cannot write \(files.etag.path): \(error.localizedDescription)")
            }
        case 416:
            return startOver()
        default:
            return nil
        }
        isWriting = true
        if let expectedSize, let total, total != expectedSize {
            discards = true
            return .permanent("\(name): the server's file is \(total) bytes; the catalog's content.size is \(expectedSize)")
        }
        return nil
    }

    func append(_ data: Data) -> StepFailure? {
        guard isWriting, let handle else {
            if errorBody.count < 64 << 10 { errorBody.append(contentsOf: data.prefix((64 << 10) - errorBody.count)) }
            return nil
        }
        if let limit = expectedSize ?? total, written + Int64(data.count) > limit {
            discards = true
            return .permanent("\(name): the server sent more than \(limit) bytes, the size \(expectedSize == nil ? "it announced" : "the catalog states")")
        }
        do {
            try handle.write(contentsOf: data)
        } catch {
            // Out of space, most likely: what was written stays, and the rest is asked for later.
            return .transient("\(name): cannot write \(files.partial.path): \(error.localizedDescription)")
        }
        written += Int64(data.count)
        return nil
    }

    func close() {
        try? handle?.close()
        handle = nil
    }

    private func startOver() -> StepFailure {
        startsOver = true
        return .transient("\(name): the partial download is stale")
    }
}

/// `Content-Range: bytes START-END/TOTAL` of a 206.
struct ContentRange {
    let start: Int64
    let total: Int64

    init?(_ text: String?) {
        guard let text, text.hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst("bytes ".count).split(separator: "/")
        guard parts.count == 2, let total = Int64(parts[1]) else { return nil }
        let bounds = parts[0].split(separator: "-")
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]),
              start >= 0, start <= end, end < total
        else { return nil }
        self.start = start
        self.total = total
    }
}
