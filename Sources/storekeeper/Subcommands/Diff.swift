import ArgumentParser

/// `storekeeper diff` (placeholder: filled in by issue 7).
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Not written yet.")
}
