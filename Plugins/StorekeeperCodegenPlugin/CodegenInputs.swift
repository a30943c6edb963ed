import Foundation

/// What the tool reads for a target, found without parsing YAML (a plugin
/// cannot link the libraries that do): the folders searched for catalogs,
/// the optional settings file, and every file whose change should run the
/// tool again.
struct CodegenInputs {
    /// The settings file's name (the tool reads it; here only its `catalogs`).
    static let settingsName = "storekeeper-codegen.json"
    /// The rule configuration's name.
    static let configurationName = "storekeeper.yml"

    /// The folders the tool searches for catalogs.
    var searchDirectories: [URL]
    /// The settings file, when the first folder has one.
    var settings: URL?
    /// Every input, sorted by path: YAML files, the settings file, configurations above.
    var files: [URL]

    init(searchDirectories: [URL], fileManager: FileManager = .default) {
        self.searchDirectories = searchDirectories
        var files = Set<URL>()
        var catalogFolders = searchDirectories
        for folder in searchDirectories {
            files.formUnion(Self.yamlFiles(under: folder, fileManager: fileManager))
        }
        if let first = searchDirectories.first {
            let candidate = first.appending(path: Self.settingsName)
            if fileManager.fileExists(atPath: candidate.path(percentEncoded: false)) {
                settings = candidate
                files.insert(candidate)
                // The catalogs it names, and their fragments: every YAML file in each one's folder.
                for path in Self.namedCatalogs(in: candidate) {
                    let catalog = URL(filePath: path, relativeTo: first).standardizedFileURL
                    files.insert(catalog)
                    let folder = catalog.deletingLastPathComponent()
                    files.formUnion(Self.yamlFiles(under: folder, fileManager: fileManager))
                    catalogFolders.append(folder)
                }
            }
        }
        for folder in catalogFolders {
            if let configuration = Self.configurationAbove(folder, fileManager: fileManager) { files.insert(configuration) }
        }
        self.files = files.sorted { $0.path(percentEncoded: false) < $1.path(percentEncoded: false) }
    }

    /// Whether a file is YAML by its name.
    static func isYAML(_ url: URL) -> Bool {
        url.pathExtension == "yaml" || url.pathExtension == "yml"
    }

    /// The folders of a set that are not inside another of the set.
    static func outermost(_ folders: Set<URL>) -> [URL] {
        let paths = folders.map { $0.standardizedFileURL.path(percentEncoded: false) }
        return folders
            .filter { folder in
                let path = folder.standardizedFileURL.path(percentEncoded: false)
                return !paths.contains { $0 != path && path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
            }
            .sorted { $0.path(percentEncoded: false) < $1.path(percentEncoded: false) }
    }

    /// Every `.yaml` and `.yml` file below a folder, hidden entries skipped
    /// (as the tool's search skips them).
    static func yamlFiles(under folder: URL, fileManager: FileManager) -> [URL] {
        guard let enumerator = fileManager.enumerator(at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter(isYAML).map(\.standardizedFileURL)
    }

    /// The `catalogs` of a settings file, or none when it cannot be read
    /// (the tool reads it again and reports what is wrong, with its place).
    static func namedCatalogs(in settings: URL) -> [String] {
        guard let data = try? Data(contentsOf: settings),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let catalogs = object["catalogs"] as? [Any]
        else { return [] }
        return catalogs.compactMap { $0 as? String }.filter { !$0.isEmpty }
    }

    /// The `storekeeper.yml` that applies to catalogs in `folder`, when it
    /// is above it: the first one found going up, stopping at a folder with
    /// `.git` (the tool's rule, `ConfigurationLocator`). One inside the
    /// folder is among its YAML files already.
    static func configurationAbove(_ folder: URL, fileManager: FileManager) -> URL? {
        var current = folder.standardizedFileURL
        while true {
            if fileManager.fileExists(atPath: current.appending(path: ".git").path(percentEncoded: false)) { return nil }
            let parent = current.deletingLastPathComponent()
            if parent.path(percentEncoded: false) == current.path(percentEncoded: false) { return nil }
            current = parent
            let candidate = current.appending(path: configurationName)
            if fileManager.fileExists(atPath: candidate.path(percentEncoded: false)) { return candidate }
        }
    }
}
