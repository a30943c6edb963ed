import ArgumentParser
import StorekeeperCommandLine
import StorekeeperTooling

/// `storekeeper schema [--output FILE]`: the JSON Schema of the catalog
/// format, which editors use through the YAML language server.
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the JSON Schema of the catalog format, for editors (completion, descriptions, inline errors).",
        discussion: """
            The schema (JSON Schema draft 2020-12) is what the YAML language server (VS Code's YAML \
            extension and other editors) reads through a first line such as \
            `# yaml-language-server: $schema=../schema/catalog.schema.json`. It covers catalog files \
            and the fragments they include. What a schema cannot check (declared names, uniqueness \
            across files, includes, the policy rules) stays with `storekeeper validate`. See \
            docs/editors.md.

            The repository keeps a copy, which a test checks; write it again with: \
            \(CatalogSchema.regenerateCommand)

            Exit status: 0 when the schema was written, 2 when it could not be.
            """
    )

    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the schema (standard output when not given). Written whole or not at all.", valueName: "file"))
    var output: String?

    func run() throws {
        let text = CatalogSchema.text
        if let output {
            try OutputFile.save(text, to: output)
        } else {
            StandardOutput.write(text, what: "the schema")
        }
    }
}
