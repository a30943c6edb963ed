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

/// Reads `--policy` through the tooling façade's one policy loader (`Workflows.loadPolicy`, which
/// the CLI's `compile`, `explain` and `simulate` use too): a compiled policy's JSON, read as an app
/// reads it, or a catalog compiled as `storekeeper compile` does (validation with the catalog's
/// storekeeper.yml, then the compiler). Which of the two a file is, is decided by its bytes.
enum PolicyLoading {
    /// At most this many of a catalog's errors are shown; `storekeeper validate` shows them all.
    static let shownErrors = 20

    static func load(_ path: String, origin: String) throws(UsageError) -> LoadedPolicy {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw UsageError("\(origin) \(path): no such file; name a catalog (catalog.yaml) or a compiled policy (policy.json)")
        }
        let compilation: Compilation
        do {
            // Steps the app registers are declared, as `storekeeper explain` reads a policy: the
            // server runs no plan, it reads the products.
            switch try Workflows.loadPolicy(path, steps: .declared) {
            case .compiledPolicy(let policy): return LoadedPolicy(policy: policy, catalogBundleID: nil)
            case .catalog(let compiled): compilation = compiled
            }
        } catch .damagedPolicy(_, let error) {
            throw UsageError("\(origin) \(error.located(in: path))")
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
