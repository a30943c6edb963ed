import FuzzSupport
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperRuntime
import StorekeeperScenarios
import StorekeeperSimulatedStore

/// The example catalogs' policies, compiled once as `storekeeper simulate`
/// compiles them, from the repository's `Catalogs/` (found from this file's
/// path: the fuzz package is built and run from a clone). The seed
/// scenarios are theirs.
let examplePolicies: [CompiledPolicy] = {
    let repository = SourcePath.normalize("\(#filePath)/../../../..")
    return ["rocket-racer", "inkwell", "daily-planet"].flatMap { name in
        let path = "\(repository)/Catalogs/\(name)/catalog.yaml"
        guard let compiled = try? CatalogCompilation([path], loader: CatalogLoader()), compiled.policies.count == 1 else {
            FuzzCheck.fail("cannot compile the example catalog \(path), which the scenario target checks scenarios against")
        }
        return compiled.policies
    }
}()

/// One input is a scenario file. It is parsed as `storekeeper simulate`
/// does, and a scenario that parses is checked against each example
/// catalog's policy (products, steps, features and names that exist).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let file = "scenarios/fuzz.yaml"
    let bytes = FuzzInput.bytes(start, count)
    let parsed = ScenarioParser().parse(bytes, file: file)
    var diagnostics = parsed.diagnostics
    if let scenario = parsed.scenario {
        for policy in examplePolicies { diagnostics += ScenarioCheck.check(scenario, policy: policy) }
    }
    ReportRendering.renderAll(ValidationReport(diagnostics: diagnostics, filesChecked: 1), rules: [], files: [file: bytes])
    return 0
}
