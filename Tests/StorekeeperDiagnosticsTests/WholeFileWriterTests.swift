import Foundation
import Testing

import StorekeeperCore
@testable import StorekeeperDiagnostics
import StorekeeperPlatform
import StorekeeperTestSupport


/// The one writer of `--output` files: exclusive temporary files, only
/// regular files replaced, names kept as typed.
@Suite("Whole-file writer")
struct WholeFileWriterTests {
    /// A fresh folder, removed when the test ends.
    final class Folder {
        let path: String
        init() throws {
            path = try ScratchFolder.create(prefix: "whole-file-writer").path
        }
        deinit { ScratchFolder.remove(URL(fileURLWithPath: path)) }
        func contents(_ name: String) -> String? { try? String(contentsOfFile: "\(path)/\(name)", encoding: .utf8) }
    }

    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    @Test("a file replaced keeps its permissions: a private policy stays private")
    func permissionsKept() throws {
        let folder = try Folder()
        let target = "\(folder.path)/private.json"
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        #expect(chmod(target, 0o600) == 0)
        try WholeFileWriter.write("new", to: target)
        var info = stat()
        #expect(stat(target, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o600)
        #expect(folder.contents("private.json") == "new")
    }

    @Test("a link planted at the temporary name is not written through: another name is taken")
    func plantedLinkAtTemporaryName() throws {
        let folder = try Folder()
        try "secret".write(toFile: "\(folder.path)/victim", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: "\(folder.path)/planted", withDestinationPath: "\(folder.path)/victim")
        var names = ["planted", "fresh"]
        try WholeFileWriter.write("policy", to: "\(folder.path)/out.json") { _ in names.removeFirst() }
        #expect(folder.contents("victim") == "secret")
        #expect(folder.contents("out.json") == "policy")
        #expect(Self.mode("\(folder.path)/out.json") == S_IFREG)
        #expect(Self.mode("\(folder.path)/planted") == S_IFLNK, "the planted link is left alone")
        #expect(Self.mode("\(folder.path)/fresh") == nil, "the temporary file was renamed")
    }

    @Test("when every temporary name tried is taken, nothing is written and the target is untouched")
    func everyNameTaken() throws {
        let folder = try Folder()
        try "secret".write(toFile: "\(folder.path)/victim", atomically: false, encoding: .utf8)
        try "old".write(toFile: "\(folder.path)/out.json", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: "\(folder.path)/planted", withDestinationPath: "\(folder.path)/victim")
        #expect(throws: WholeFileWriter.Failure.self) {
            try WholeFileWriter.write("policy", to: "\(folder.path)/out.json") { _ in "planted" }
        }
        #expect(folder.contents("victim") == "secret")
        #expect(folder.contents("out.json") == "old")
    }

    @Test("the default temporary names differ from run to run and are hidden")
    func temporaryNamesAreRandom() throws {
        let folder = try Folder()
        try WholeFileWriter.write("one", to: "\(folder.path)/out.json")
        try WholeFileWriter.write("two", to: "\(folder.path)/out.json")
        #expect(folder.contents("out.json") == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.json"], "no temporary file is left")
    }

    @Test("a link, a FIFO, a device node or a folder at the target is refused and left as it was")
    func refusesWhatIsNotARegularFile() throws {
        let folder = try Folder()
        try "secret".write(toFile: "\(folder.path)/victim", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: "\(folder.path)/link", withDestinationPath: "\(folder.path)/victim")
        try #require(mkfifo("\(folder.path)/fifo", 0o644) == 0)
        try FileManager.default.createDirectory(atPath: "\(folder.path)/folder", withIntermediateDirectories: false)
        var targets: [(name: String, kind: String, mode: mode_t)] = [
            ("link", "a symbolic link", S_IFLNK), ("fifo", "a FIFO", S_IFIFO), ("folder", "a folder", S_IFDIR),
        ]
        // A device node of our own (as root); /dev/null itself is only asked about, never written.
        #if os(Linux)
        if mknod("\(folder.path)/null", S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 {
            targets.append(("null", "a device node", S_IFCHR))
        }
        #endif
        #expect(WholeFileWriter.problem(writingTo: "/dev/null")?.hasPrefix("it is a device node; name a regular file") == true)
        for target in targets {
            let path = "\(folder.path)/\(target.name)"
            #expect(WholeFileWriter.problem(writingTo: path)?.hasPrefix("it is \(target.kind)") == true, "\(target.name)")
            do {
                try WholeFileWriter.write("policy", to: path)
                Issue.record("\(target.name) was written")
            } catch {
                #expect(error.message.hasPrefix("cannot write \(path): it is \(target.kind)"), "\(error.message)")
                #expect(error.message.contains("name a regular file (it is replaced whole) or a path that does not exist yet"))
            }
            #expect(Self.mode(path) == target.mode, "\(target.name) is left as it was")
        }
        #expect(folder.contents("victim") == "secret")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == targets.map(\.name).appending("victim").sorted(),
                "no temporary file is left")
    }

    @Test("a missing folder is named, with what to do")
    func missingFolder() {
        #expect(WholeFileWriter.problem(writingTo: "no/such/folder/out.json") == "the folder no/such/folder does not exist; create it, or write elsewhere")
        #expect(WholeFileWriter.problem(writingTo: "out/") == "it does not end in a file name; add the name of the file to write")
    }

    @Test("an argument that was not UTF-8 is told from one typed with U+FFFD")
    func argumentBytes() {
        let typed = Array("out\u{FFFD}.json".utf8)
        let invalid: [UInt8] = Array("out".utf8) + [0xFF] + Array(".json".utf8)
        #expect(ArgumentBytes.repairedArgument(endingWith: "out.json", in: [invalid]) == nil, "no U+FFFD, nothing to tell")
        #expect(ArgumentBytes.repairedArgument(endingWith: "out\u{FFFD}.json", in: [typed]) == nil)
        #expect(ArgumentBytes.repairedArgument(endingWith: "out\u{FFFD}.json", in: [Array("schema".utf8), invalid]) == invalid)
        #expect(ArgumentBytes.repairedArgument(endingWith: "out\u{FFFD}.json", in: [Array("--output=".utf8) + invalid]) == Array("--output=".utf8) + invalid)
        #expect(ArgumentBytes.repairedArgument(endingWith: "out\u{FFFD}.json", in: [invalid, typed]) == nil, "one argument holds it as typed")
        #expect(ArgumentBytes.escaped(invalid) == #"out\xFF.json"#)
        #expect(ArgumentBytes.escaped(Array("a\\b\n\u{E9}".utf8)) == #"a\\b\x0A\xC3\xA9"#)
    }
}

extension Array {
    fileprivate func appending(_ element: Element) -> [Element] { self + [element] }
}

extension WholeFileWriterTests {
    @Test("a target whose name is near the 255-byte limit is written: the temporary name is kept short")
    func longName() throws {
        let folder = try Folder()
        let name = String(repeating: "n", count: 250) + ".json"
        try WholeFileWriter.write("policy", to: "\(folder.path)/\(name)")
        #expect(folder.contents(name) == "policy")
    }
}
