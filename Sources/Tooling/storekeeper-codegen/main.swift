import StorekeeperTooling

// `storekeeper-codegen`: the build-tool plugin's tool (docs/codegen.md).
// Diagnostics go to standard error in the CLI's plain text form, which
// SwiftPM and Xcode show as errors and warnings at their place.

/// Writes all of `text` to standard error.
func writeToStandardError(_ text: String) {
    DescriptorWriting.writeAll(text, to: 2)
}

let parsed: CodegenArguments.Parsed
do {
    parsed = try CodegenArguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    writeToStandardError("storekeeper-codegen: error: \(error.message)\n\n\(CodegenArguments.usage)\n")
    exit(2)
}
guard case .run(let arguments) = parsed else {
    writeToStandardError(CodegenArguments.usage + "\n")
    exit(0)
}
do {
    let outcome = try CodegenCommand(arguments: arguments).run()
    if !outcome.report.diagnostics.isEmpty {
        writeToStandardError(TextReporter(colors: false).render(outcome.report))
    }
    exit(outcome.status)
} catch {
    writeToStandardError("storekeeper-codegen: error: \(error.message)\n")
    exit(2)
}
