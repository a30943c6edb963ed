import ArgumentParser

/// `storekeeper export` (placeholder: filled in by issue 7).
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Not written yet.")
}
