import FuzzSupport
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperRules

/// One input is a folder of YAML files (`FuzzFiles`): `Catalogs/app/catalog.yaml`,
/// then any fragment, scenario or `storekeeper.yml` after a `#== NAME` line.
/// It is validated as `storekeeper validate` does (the format, then the
/// policy rules), naming the catalog file and then the folder above it (the
/// two ways of calling it decide the include root differently); the report
/// is rendered in the four formats; a catalog without errors is compiled
/// as `storekeeper compile` does, and its policy must read back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalog(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let files = FuzzFiles(FuzzInput.bytes(start, count), folder: "Catalogs/app", first: "catalog.yaml")
    let loader = CatalogLoader(reader: files.reader)
    for paths in [[files.firstPath], ["Catalogs"]] {
        guard let compiled = try? CatalogCompilation(paths, loader: loader) else { continue }
        ReportRendering.renderAll(compiled.report, rules: DiagnosticIndex.all, files: files.bytes)
        for policy in compiled.policies { PolicyRoundTrip.check(policy, source: "PolicyCompiler") }
    }
    return 0
}
