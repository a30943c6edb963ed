/// The repository's root folder (above Server/), for the shared oracle script:
/// four levels above this file, `Server/Tests/StorekeeperVerificationTests/Support/`.
enum RepositoryRoot {
    static let path: String = {
        var path = #filePath
        for _ in 0..<5 {
            guard let slash = path.lastIndex(of: "/") else { return ".." }
            path = String(path[..<slash])
        }
        return path
    }()
}
