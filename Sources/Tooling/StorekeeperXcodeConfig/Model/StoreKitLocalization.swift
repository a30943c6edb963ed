import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics

/// One entry of a product's or a group's `localizations`.
///
/// For a product, `displayName` and `description` are the title and
/// description the App Store shows. For a subscription group, `displayName`
/// is the group's name and `description` the custom app name shown with it.
public struct StoreKitLocalization: Sendable {
    /// The locale as Xcode writes it, with underscores: `en_US`.
    public var locale: Located<String>
    /// `displayName`.
    public var displayName: Located<String>
    /// `description`.
    public var description: Located<String>
    /// The entry's object.
    public var range: SourceRange

    /// Creates a localization.
    public init(locale: Located<String>, displayName: Located<String>, description: Located<String>, range: SourceRange) {
        self.locale = locale
        self.displayName = displayName
        self.description = description
        self.range = range
    }

    /// The locale as a catalog writes it: `en_US` is `en-US`.
    public var catalogLocale: String { Self.catalogLocale(locale.value) }

    /// `en_US` as a catalog writes it, `en-US`.
    public static func catalogLocale(_ locale: String) -> String {
        String(locale.map { $0 == "_" ? "-" : $0 })
    }

    /// `en-US` as Xcode writes it, `en_US`.
    public static func storeKitLocale(_ locale: String) -> String {
        String(locale.map { $0 == "-" ? "_" : $0 })
    }
}
