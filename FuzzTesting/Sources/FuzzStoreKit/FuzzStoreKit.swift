import FuzzSupport
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperRules
import StorekeeperXcodeConfig

/// One input is a StoreKit configuration file. It is imported as
/// `storekeeper import` does (read, imported into a catalog read back by the
/// loader, the policy rules run on it, the diagnostics moved to the StoreKit
/// file and reported), then the catalog is exported over the same file as
/// `storekeeper export --base` does, and the export must read back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreKit(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let file = "Products.storekit"
    let bytes = FuzzInput.bytes(start, count)
    let read = StoreKitReader().read(bytes, file: file)
    var diagnostics = read.diagnostics
    if !read.hasErrors, let configuration = read.configuration {
        let imported = StoreKitImporter().importCatalog(from: configuration)
        diagnostics += imported.diagnostics
        if !imported.hasErrors {
            guard let catalog = imported.catalog else {
                FuzzCheck.fail("the import reports no error but gives no catalog:\n\(imported.text)")
            }
            let memory = InMemorySourceReader([imported.sourceMap.catalogPath: imported.text])
            if let policy = try? PolicyValidation(reader: memory).check([catalog]) {
                diagnostics += policy.diagnostics.map(imported.sourceMap.translate)
            }
            let exported = StoreKitExporter(base: configuration).export(catalog)
            let reread = StoreKitReader().read(Array(exported.text.utf8), file: "Exported.storekit")
            FuzzCheck.require(reread.configuration != nil, "StoreKitReader cannot read what StoreKitExporter wrote: \(reread.diagnostics.map(\.message))\n\(exported.text)")
        }
    }
    ReportRendering.renderAll(ValidationReport(diagnostics: diagnostics, filesChecked: 1), rules: [], files: [file: bytes])
    return 0
}
