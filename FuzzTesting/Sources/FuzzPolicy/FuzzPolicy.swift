import FuzzSupport
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperRuntime

/// One input is a compiled policy (JSON). It is read as an app reads it
/// (only the built-in steps) and as `storekeeper explain` does (unknown
/// steps declared); what reads must survive a round trip through the writer
/// and be explained. Then the file is loaded as `PolicyLoader` does, which
/// decides between a compiled policy and a catalog.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPolicy(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    for declaresUnknownSteps in [false, true] {
        if let policy = try? PolicyDecoder(declaresUnknownSteps: declaresUnknownSteps).decode(bytes) {
            PolicyRoundTrip.check(policy, source: "PolicyDecoder(declaresUnknownSteps: \(declaresUnknownSteps))")
        }
    }
    let reader = InMemorySourceReader(bytes: ["Policies/app.json": bytes])
    if let policy = try? PolicyLoader(reader: reader).load(contentsOf: "Policies/app.json") {
        PolicyRoundTrip.check(policy, source: "PolicyLoader")
    }
    return 0
}
