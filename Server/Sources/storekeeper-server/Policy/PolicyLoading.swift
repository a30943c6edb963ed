import Foundation
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperTooling

/// The policy `serve` enforces, and the bundle id its catalog names.
struct LoadedPolicy: Sendable {
    var policy: CompiledPolicy
    /// The catalog's `app.bundle-id`; nil for a compiled policy, which does not carry it.
    var catalogBundleID: String?

    /// What `--policy` named, for the log: a catalog (compiled at start) or a compiled policy.
    var source: String { catalogBundleID == nil ? "compiled-policy" : "catalog" }
}

/// Reads `--policy`: a compiled policy's JSON through the runtime's `PolicyDecoder` (the reader an
/// app uses), or a catalog compiled as `storekeeper compile` does (StorekeeperTooling's
/// `Workflows.compile`: validation with the catalog's storekeeper.yml, then the compiler). Which of
/// the two a file is, is decided by its bytes (`PolicyRecognition`), as every Storekeeper command
/// decides.
enum PolicyLoading {
    /// At most this many of a catalog's errors are shown; `storekeeper validate` shows them all.
    static let shownErrors = 20

    static func load(_ path: String, origin: String) throws(UsageError) -> LoadedPolicy {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw UsageError("\(origin) \(path): no such file; name a catalog (catalog.yaml) or a compiled policy (policy.json)")
        }
        if !isFolder.boolValue {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError("\(origin) \(path) cannot be read")
            }
            let bytes = Array(data)
            if PolicyRecognition.isCompiledPolicy(bytes) {
                do {
                    // Steps the app registers are declared, as `storekeeper explain` reads a policy: the
                    // server runs no plan, it reads the products.
                    let policy = try PolicyDecoder(declaresUnknownSteps: true).decode(bytes)
                    return LoadedPolicy(policy: policy, catalogBundleID: nil)
                } catch {
                    throw UsageError("\(origin) \(error.located(in: path))")
                }
            }
        }
        let compilation: Compilation
        do {
            compilation = try Workflows.compile(path)
        } catch {
            throw UsageError("\(origin) \(path): \(error.description)")
        }
        guard let policy = compilation.policy else {
            let errors = compilation.diagnostics.filter { $0.severity == .error }
            var lines = errors.prefix(shownErrors).map { "  \($0.location): \($0.message) [\($0.rule)]" }
            if errors.count > shownErrors { lines.append("  ... and \(errors.count - shownErrors) more (storekeeper validate \(path) lists them all)") }
            throw UsageError("\(origin) \(path): the catalog has \(errors.count) error\(errors.count == 1 ? "" : "s"); nothing is served:\n" + lines.joined(separator: "\n"))
        }
        let bundleID = compilation.validation.run.catalogs.first?.app.bundleID.value
        return LoadedPolicy(policy: policy, catalogBundleID: bundleID)
    }
}
