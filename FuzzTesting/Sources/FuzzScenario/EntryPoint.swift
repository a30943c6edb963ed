import FuzzSupport

/// The executable's entry point on Linux (see `FuzzDriver`): libFuzzer, on `fuzzScenario`.
@_cdecl("FuzzScenario_main")
func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    // A closure, not `fuzzScenario` itself: a reference to the `@_cdecl` function from
    // this file would emit a second `LLVMFuzzerTestOneInput` in debug builds.
    FuzzDriver.run(argc, argv) { fuzzScenario($0, $1) }
}
