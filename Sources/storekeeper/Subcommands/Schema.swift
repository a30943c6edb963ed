import ArgumentParser

/// `storekeeper schema` (placeholder: filled in by issue 7).
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Not written yet.")
}
