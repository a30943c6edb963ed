import StorekeeperChildProcess
import StorekeeperCore
import StorekeeperPlatform
import StorekeeperTestSupport
import Foundation
import Testing


/// `--output` in a shared folder (compile, export, import, schema, and
/// storekeeper-codegen): never written through a planted link, never over
/// what is not a regular file, never under another name than the one typed.
@Suite("Output safety")
struct OutputSafetyTests {
    /// The commands that write `--output`, each as run in a workspace set up
    /// by ``prepare(_:)``, writing to `target`.
    enum Writer: String, CaseIterable, CustomStringConvertible {
        case schema, compile, export, `import`, codegen

        var description: String { rawValue }

        /// Puts what the command reads into `workspace`.
        func prepare(_ workspace: Workspace) throws {
            try workspace.write("shop.yaml", validCatalog())
            let fixture = StoreKitCommandTests.fixtures.appendingPathComponent(StoreKitCommandTests.revenueCat)
            try workspace.write("shop.storekit", bytes: Array(try Data(contentsOf: fixture)))
        }

        func arguments(writing target: String) -> [String] {
            switch self {
            case .schema: ["schema", "-o", target]
            case .compile: ["compile", "shop.yaml", "-o", target]
            case .export: ["export", "shop.yaml", "--format", "storekit", "-o", target]
            case .import: ["import", "shop.storekit", "--name", "shop", "-o", target]
            case .codegen: ["--output", target, "shop.yaml"]
            }
        }

        /// Runs the command; its status and standard error.
        func run(in workspace: Workspace, writing target: String) async throws -> (status: Int32, stderr: String) {
            if self == .codegen {
                let run = try CodegenToolTests.codegen(arguments(writing: target), in: workspace.url)
                return (run.status, run.stderr)
            }
            let result = try await CLI.run(arguments(writing: target), in: workspace.url)
            #expect(result.exitedNormally, "\(result)")
            return (result.status, result.stderr)
        }
    }

    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// The largest process id, so that a link can be planted at every name `NAME.tmp-<pid>` can take.
    private static var largestPID: Int {
        let text = (try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8)) ?? ""
        return min(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 99_999, 1 << 17)
    }

    /// storekeeper-codegen wrote over its own catalog (or a fragment) when
    /// `--output` named it, directly or through a linked folder.
    @Test("storekeeper-codegen refuses to write over what it reads", arguments: ["shop.yaml", "self/shop.yaml", "extra.yaml"])
    func codegenKeepsItsInputs(target: String) async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog().replacingOccurrences(of: "products:", with: "include: [extra.yaml]\nproducts:"))
        try workspace.write("extra.yaml", "products: []\n")
        try FileManager.default.createSymbolicLink(atPath: workspace.url.appendingPathComponent("self").path, withDestinationPath: ".")
        let before = try String(contentsOf: workspace.url.appendingPathComponent(target), encoding: .utf8)
        let run = try CodegenToolTests.codegen(["--output", target, "shop.yaml"], in: workspace.url)
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("which the Swift is generated from"), "\(run.stderr)")
        #expect(try String(contentsOf: workspace.url.appendingPathComponent(target), encoding: .utf8) == before)
    }

    @Test("a link planted at every predictable temporary name is not followed: the victim is unchanged")
    func plantedLinks() async throws {
        let workspace = try Workspace()
        try Writer.schema.prepare(workspace)
        try workspace.write("victim.txt", "secret\n")
        try workspace.makeDirectory("shared")
        let victim = workspace.url.appendingPathComponent("victim.txt").path
        let shared = workspace.url.appendingPathComponent("shared").path
        // Every name `out.txt.tmp-<pid>` can take (the name main used), planted once for every writer.
        for pid in 1...Self.largestPID {
            try #require(symlink(victim, "\(shared)/out.txt.tmp-\(pid)") == 0)
        }
        for writer in Writer.allCases {
            try? FileManager.default.removeItem(atPath: "\(shared)/out.txt")
            let (status, stderr) = try await writer.run(in: workspace, writing: "shared/out.txt")
            #expect(status == 0, "\(writer): \(stderr)")
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "secret\n", "\(writer) wrote through a planted link")
            #expect(Self.mode("\(shared)/out.txt") == S_IFREG, "\(writer)")
            #expect(try String(contentsOfFile: "\(shared)/out.txt", encoding: .utf8).count > 100, "\(writer)")
            let left = try FileManager.default.contentsOfDirectory(atPath: shared).filter { !$0.hasPrefix("out.txt.tmp-") }
            #expect(left == ["out.txt"], "\(writer) left a temporary file: \(left)")
        }
    }

    @Test("--output onto a FIFO, a link, a device node or a folder is refused (exit 2) and left as it was", arguments: Writer.allCases)
    func refusesWhatIsNotARegularFile(writer: Writer) async throws {
        let workspace = try Workspace()
        try writer.prepare(workspace)
        try workspace.write("victim.txt", "secret\n")
        let root = workspace.url.path
        try #require(mkfifo("\(root)/fifo", 0o644) == 0)
        try #require(symlink("\(root)/victim.txt", "\(root)/link") == 0)
        try workspace.makeDirectory("folder")
        var targets: [(name: String, kind: String, mode: mode_t)] = [
            ("fifo", "a FIFO (named pipe)", S_IFIFO), ("link", "a symbolic link", S_IFLNK), ("folder", "a folder", S_IFDIR),
        ]
        // A node like /dev/null, of our own: the real one is never a target here.
        #if os(Linux)
        if mknod("\(root)/null", S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 {
            targets.append(("null", "a device node", S_IFCHR))
        }
        #endif
        for target in targets {
            let (status, stderr) = try await writer.run(in: workspace, writing: target.name)
            #expect(status == 2, "\(target.name): \(stderr)")
            #expect(stderr.contains("\(target.name): it is \(target.kind)"), "\(target.name): \(stderr)")
            #expect(stderr.contains("name a regular file (it is replaced whole) or a path that does not exist yet"), "\(stderr)")
            #expect(Self.mode("\(root)/\(target.name)") == target.mode, "\(target.name) was replaced")
        }
        #expect(try String(contentsOfFile: "\(root)/victim.txt", encoding: .utf8) == "secret\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(root)/folder").isEmpty)
    }

    @Test("a --output name that is not UTF-8 is refused with its bytes escaped, and nothing is written under another name", arguments: [Writer.schema, .compile, .codegen])
    func nonUTF8Name(writer: Writer) throws {
        let workspace = try Workspace()
        try writer.prepare(workspace)
        try workspace.makeDirectory("out")
        let folder = workspace.url.appendingPathComponent("out").path
        var arguments = writer.arguments(writing: "TARGET").map { Array($0.utf8) }
        let target = Array("\(folder)/policy".utf8) + [0xFF] + Array(".json".utf8)
        arguments = arguments.map { $0 == Array("TARGET".utf8) ? target : $0 }
        let tool = CLI.productsDirectory.appendingPathComponent(writer == .codegen ? "storekeeper-codegen" : "storekeeper").path
        let (status, stderr) = try RawProcess.run(tool, arguments, in: workspace.url.path)
        #expect(status == 2, "\(stderr)")
        #expect(stderr.contains(#"policy\xFF.json"#), "\(stderr)")
        #expect(stderr.contains("is not valid UTF-8 and cannot be kept byte for byte; name the file in UTF-8"), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "written under another name")
    }
}

/// Runs a program with arguments given as bytes (so that a name need not be
/// UTF-8), collecting its standard error.
enum RawProcess {
    static func run(_ program: String, _ arguments: [[UInt8]], in directory: String) throws -> (status: Int32, stderr: String) {
        let run = try ChildProcess(
            program, argumentBytes: arguments, directory: directory, environment: CLI.environment(), standardError: .capture(limit: .max)
        ).run(timeout: .seconds(CLI.timeLimit))
        if run.timedOut { Issue.record("\(program) did not finish in \(CLI.timeLimit) seconds") }
        return (run.termination.shellStatus, String(decoding: run.standardError, as: UTF8.self))
    }
}
