import ArgumentParser

/// `storekeeper import` (placeholder: filled in by issue 7).
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Not written yet.")
}
