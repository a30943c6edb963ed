import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
public import StorekeeperRuntime

/// A policy read from a path by ``Workflows/loadPolicy(_:options:steps:)``:
/// a compiled policy's JSON, or a catalog validated and compiled.
public enum PolicyInput {
    /// A compiled policy, read as an app reads it.
    case compiledPolicy(CompiledPolicy)
    /// A catalog, validated (its storekeeper.yml and suppressions included)
    /// and, when it has no error, compiled: ``Compilation/policy`` is nil otherwise.
    case catalog(Compilation)
}

/// Why ``Workflows/loadPolicy(_:options:steps:)`` could not read a policy.
public enum PolicyLoadFailure: Error, Sendable, CustomStringConvertible {
    /// The workflow could not run (unreadable, a folder of several catalogs).
    case workflow(WorkflowFailure)
    /// The path is a compiled policy this version cannot read: the policy
    /// reader's one error, at its line and column when it is a JSON error.
    case damagedPolicy(path: String, PolicyLoadError)

    public var description: String {
        switch self {
        case .workflow(let failure): failure.description
        case .damagedPolicy(let path, let error): error.located(in: path)
        }
    }
}

extension Workflows {
    /// Reads the policy at `path`, deciding once whether it is a compiled
    /// policy or a catalog, as every front end decides (`PolicyRecognition`:
    /// by the file's bytes): the one policy loader of the CLI's `compile`,
    /// `explain` and `simulate` and of `storekeeper-server serve`.
    ///
    /// - Parameter steps: How the steps an app registers are known: declared
    ///   (a policy names them, the app registers them), or run by stand-ins
    ///   made for each name (`simulate`); a compiled policy's are read the same way.
    public static func loadPolicy(_ path: String, options: WorkflowOptions = WorkflowOptions(),
                                  steps: PluginSteps = .declared) throws(PolicyLoadFailure) -> PolicyInput {
        if let value = try compiledPolicy(at: path, reader: options.reader) {
            let declared: CompiledPolicy
            do throws(PolicyLoadError) {
                declared = try PolicyDecoder(declaresUnknownSteps: true).decode(value: value)
            } catch {
                throw .damagedPolicy(path: path, error)
            }
            guard case .registered(let make) = steps, !declared.plugins.extraStepNames.isEmpty else { return .compiledPolicy(declared) }
            // Read again with the caller's plugins registered under the names the policy uses.
            var plugins = PluginRegistry()
            do {
                for name in declared.plugins.extraStepNames { try plugins.register(make(name)) }
            } catch {
                throw .workflow(WorkflowFailure("\(path): \(error.description)"))
            }
            do throws(PolicyLoadError) {
                return .compiledPolicy(try PolicyDecoder(plugins: plugins).decode(value: value))
            } catch {
                throw .damagedPolicy(path: path, error)
            }
        }
        do {
            return .catalog(try compile(path, options: options, steps: steps))
        } catch {
            throw .workflow(error)
        }
    }

    /// A compiled policy's JSON, parsed, when `path` names one; nil for a
    /// catalog, a folder, or a file that cannot be read (the catalog loader
    /// reports that, as for any catalog).
    private static func compiledPolicy(at path: String, reader: any SourceReader) throws(PolicyLoadFailure) -> JSONValue? {
        let decoder = PolicyDecoder()
        guard reader.kind(of: path) == .file else { return nil }
        let examined: PolicyRecognition.Examined
        do {
            examined = try PolicyRecognition.examine(path, reader: reader, limit: decoder.maxSize)
        } catch {
            return nil
        }
        do throws(PolicyLoadError) {
            switch examined {
            case .policy(let bytes): return try decoder.parse(bytes)
            case .policyTooLarge(let size): throw decoder.tooLarge(size: size)
            case .other: return nil
            }
        } catch {
            throw .damagedPolicy(path: path, error)
        }
    }
}
