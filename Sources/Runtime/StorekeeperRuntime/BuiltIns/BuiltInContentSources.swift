import StorekeeperCore

/// The built-in content sources, one per `ContentSource`.
enum BuiltInContentSources {
    static let all: [any ContentSourcePlugin] = ContentSource.allCases.map(plugin(for:))

    static func plugin(for source: ContentSource) -> any ContentSourcePlugin {
        switch source {
        case .bundle: BundleContentSource()
        case .appleHosted: AppleHostedContentSource()
        case .server: ServerContentSource()
        }
    }
}
