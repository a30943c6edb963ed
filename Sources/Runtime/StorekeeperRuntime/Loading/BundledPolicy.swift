public import Foundation
import StorekeeperCore

extension CompiledPolicy {
    /// The compiled policy an app carries: `storekeeper-policy.json`, which
    /// StorekeeperPolicyPlugin compiles from the target's catalog at build
    /// time (failing the build with validate's diagnostics) and bundles as a
    /// resource of the target.
    ///
    /// ```swift
    /// var plugins = PluginRegistry()
    /// try plugins.register(AuditLogStep())
    /// let policy = try CompiledPolicy.bundled(in: .module, plugins: plugins)
    /// ```
    ///
    /// - Parameters:
    ///   - bundle: the bundle that holds it: `Bundle.module` in the target
    ///     that applies the plugin, or `Bundle.main` when an app copies it.
    ///   - plugins: the app's plugins; every step the policy names must be
    ///     registered here.
    /// - Throws: ``BundledPolicyError``: the resource is missing, cannot be
    ///   read, or is not a policy this version reads (where, and what would be right).
    public static func bundled(in bundle: Bundle, plugins: PluginRegistry = PluginRegistry()) throws(BundledPolicyError) -> CompiledPolicy {
        guard let url = bundle.url(forResource: PolicyFormat.resourceName, withExtension: PolicyFormat.resourceExtension) else {
            throw .missing(bundle: bundle.bundlePath)
        }
        return try load(contentsOf: url, plugins: plugins)
    }

    /// A compiled policy from a file (`storekeeper compile` wrote it), read
    /// whole within `PolicyFormat.maxSize`, with the app's plugins.
    public static func load(contentsOf url: URL, plugins: PluginRegistry = PluginRegistry()) throws(BundledPolicyError) -> CompiledPolicy {
        let decoder = PolicyDecoder(plugins: plugins)
        let bytes: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            let size = try handle.seekToEnd()
            guard size <= UInt64(decoder.maxSize) else {
                throw BundledPolicyError.invalid(path: url.path, decoder.tooLarge(size: Int(clamping: size)))
            }
            try handle.seek(toOffset: 0)
            // Never more than the limit, even if the file grew since.
            let data = try handle.read(upToCount: decoder.maxSize) ?? Data()
            bytes = [UInt8](data)
        } catch let error as BundledPolicyError {
            throw error
        } catch {
            throw .unreadable(path: url.path, reason: error.localizedDescription)
        }
        do {
            return try decoder.decode(bytes)
        } catch {
            throw .invalid(path: url.path, error)
        }
    }
}

/// Why an app's compiled policy could not be loaded.
public enum BundledPolicyError: Error, Sendable, CustomStringConvertible {
    /// The bundle has no `storekeeper-policy.json`.
    case missing(bundle: String)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not a policy this version reads.
    case invalid(path: String, PolicyLoadError)

    /// What went wrong and what would be right.
    public var description: String {
        switch self {
        case .missing(let bundle):
            "\(bundle) has no \(PolicyFormat.resourceName).\(PolicyFormat.resourceExtension): apply StorekeeperPolicyPlugin to the target that holds the catalog (docs/embedding.md)"
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .invalid(let path, let error):
            error.located(in: path)
        }
    }
}
