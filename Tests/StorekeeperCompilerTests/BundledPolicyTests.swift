import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperTestSupport
import Testing

/// `CompiledPolicy.bundled(in:)` and `load(contentsOf:)`, the runtime's one
/// call for the policy StorekeeperPolicyPlugin bundles: the same policy the
/// compiler made, and each way it can fail said with where and what.
@Suite struct BundledPolicyTests {
    /// The example catalog's policy, as the plugin writes it.
    static func policyJSON() throws -> (policy: CompiledPolicy, json: String) {
        var plugins = PluginRegistry()
        try plugins.declare(["audit-log"])
        let policy = try PolicyCompiler(plugins: plugins).compile(try EngineFixtures.example("rocket-racer"))
        let encoder = PolicyEncoder(indentation: 2)
        return (policy, encoder.serialize(encoder.document(policy)))
    }

    static func declaredPlugins() throws -> PluginRegistry {
        var plugins = PluginRegistry()
        try plugins.declare(["audit-log"])
        return plugins
    }

    /// The error loading gives; nil (recorded as an issue) when it loads.
    static func failure(_ load: () throws(BundledPolicyError) -> CompiledPolicy) -> BundledPolicyError? {
        do {
            _ = try load()
            Issue.record("it loaded")
            return nil
        } catch {
            return error
        }
    }

    @Test func aBundledPolicyLoadsAsTheCompilerMadeIt() throws {
        let (policy, json) = try Self.policyJSON()
        try ScratchFolder.with { folder in
            try json.write(to: folder.appendingPathComponent("storekeeper-policy.json"), atomically: true, encoding: .utf8)
            let bundle = try #require(Bundle(path: folder.path))
            let loaded = try CompiledPolicy.bundled(in: bundle, plugins: Self.declaredPlugins())
            #expect(loaded.products.map(\.id) == policy.products.map(\.id))
            let coins = try #require(loaded.product(id: "com.example.rocketracer.coins.500"))
            let original = try #require(policy.product(id: "com.example.rocketracer.coins.500"))
            #expect(loaded.plan(for: coins, state: .purchased).stepNames == policy.plan(for: original, state: .purchased).stepNames)
        }
    }

    @Test func aBundleWithoutThePolicyNamesThePlugin() throws {
        try ScratchFolder.with { folder in
            let bundle = try #require(Bundle(path: folder.path))
            let error = try #require(Self.failure { () throws(BundledPolicyError) in try CompiledPolicy.bundled(in: bundle) })
            guard case .missing = error else { Issue.record("\(error)"); return }
            #expect(error.description.contains("storekeeper-policy.json"))
            #expect(error.description.contains("StorekeeperPolicyPlugin"))
        }
    }

    @Test func aDamagedPolicyIsRefusedAtItsLineAndColumn() throws {
        let (_, json) = try Self.policyJSON()
        try ScratchFolder.with { folder in
            let file = folder.appendingPathComponent("storekeeper-policy.json")
            // A comma doubled at the end of the third line: the second one is the error.
            var lines = json.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let column = lines[2].unicodeScalars.count + 1
            lines[2] += ","
            try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
            let plugins = try Self.declaredPlugins()
            let error = try #require(Self.failure { () throws(BundledPolicyError) in try CompiledPolicy.load(contentsOf: file, plugins: plugins) })
            guard case .invalid(_, let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.line == 3 && reason.column == column, "\(error)")
            #expect(error.description.hasPrefix("\(file.path):3:\(column): "), "\(error)")
        }
    }

    @Test func aMissingFileIsUnreadableAndATooLargeOneIsNotRead() throws {
        try ScratchFolder.with { folder in
            let missing = folder.appendingPathComponent("none.json")
            let unreadable = try #require(Self.failure { () throws(BundledPolicyError) in try CompiledPolicy.load(contentsOf: missing) })
            guard case .unreadable(let path, _) = unreadable else { Issue.record("\(unreadable)"); return }
            #expect(path == missing.path)
            let large = folder.appendingPathComponent("large.json")
            // Sparse: the size is what counts, and the loader must not read it.
            #expect(FileManager.default.createFile(atPath: large.path, contents: nil))
            let handle = try FileHandle(forWritingTo: large)
            try handle.truncate(atOffset: UInt64(PolicyFormat.maxSize + 1))
            try handle.close()
            let tooLarge = try #require(Self.failure { () throws(BundledPolicyError) in try CompiledPolicy.load(contentsOf: large) })
            guard case .invalid(_, let reason) = tooLarge else { Issue.record("\(tooLarge)"); return }
            #expect(reason.message.contains("256 MiB"), "\(tooLarge)")
        }
    }
}
