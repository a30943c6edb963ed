import CLibFuzzer

/// Starts libFuzzer from a target's own entry point.
///
/// On Linux SwiftPM links an executable target with `--defsym
/// main=<Target>_main`, so that its module could be imported; built with
/// `-parse-as-library` the target has no such symbol, and the link fails
/// (`undefined symbol 'FuzzCatalog_main'`). Each target therefore defines
/// `<Target>_main` (`@_cdecl`) and calls this, which hands the arguments to
/// libFuzzer's driver; `main` is then that function, and libFuzzer's own
/// `main` is never linked. On macOS, where there is no alias, libFuzzer's
/// `main` runs `LLVMFuzzerTestOneInput` and the entry point goes unused.
public enum FuzzDriver {
    /// The signature of `LLVMFuzzerTestOneInput`.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Runs libFuzzer with the process's arguments; returns its exit status.
    public static func run(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ testOneInput: TestOneInput
    ) -> CInt {
        var argc = argc
        var argv = argv
        return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
    }
}
