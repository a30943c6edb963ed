import Foundation

/// The folder a drill command works in: the one given (`--work`), which must
/// be empty or new, or a new temporary one.
enum WorkFolder {
    /// The folder, created, and whether it is temporary (the command removes it when done).
    static func prepare(_ given: String?, prefix: String) throws(DrillError) -> (path: String, temporary: Bool) {
        let files = FileManager.default
        let work = given ?? files.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        if let existing = try? files.contentsOfDirectory(atPath: work), !existing.isEmpty {
            throw DrillError.message("the work folder \(work) is not empty: give an empty or new folder")
        }
        do {
            try files.createDirectory(atPath: work, withIntermediateDirectories: true)
        } catch {
            throw DrillError.message("cannot create the work folder \(work): \(error.localizedDescription)")
        }
        return (work, given == nil)
    }
}
