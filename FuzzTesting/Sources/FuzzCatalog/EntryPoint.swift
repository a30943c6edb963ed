import FuzzSupport

/// The executable's entry point on Linux (see `FuzzDriver`): libFuzzer, on `fuzzCatalog`.
@_cdecl("FuzzCatalog_main")
func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    // A closure, not `fuzzCatalog` itself: a reference to the `@_cdecl` function from
    // this file would emit a second `LLVMFuzzerTestOneInput` in debug builds.
    FuzzDriver.run(argc, argv) { fuzzCatalog($0, $1) }
}
