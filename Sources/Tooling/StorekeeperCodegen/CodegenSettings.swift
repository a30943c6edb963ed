import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperJSON

/// The optional settings file of a target that uses the build-tool plugin,
/// `storekeeper-codegen.json`, beside the target's sources:
///
/// ```json
/// {"access": "public", "typeAliases": false, "catalogs": ["../../Catalogs/rocket-racer/catalog.yaml"]}
/// ```
///
/// Every key is optional: `access` (`internal`, `package` or `public`),
/// `typeAliases` (whether a module with one catalog gets top-level
/// `Product`, `Feature` and `Balance`), `catalogs` (catalog files outside the
/// target, relative to this file).
public struct CodegenSettings: Sendable, Hashable {
    /// The file's name, which the plugin looks for.
    public static let fileName = "storekeeper-codegen.json"
    /// The largest settings file read.
    public static let maxSize = 1 << 20

    /// The access level, when the file sets one.
    public var access: AccessLevel?
    /// Whether to write type aliases, when the file says.
    public var typeAliases: Bool?
    /// Catalogs outside the target, as written (relative to the file).
    public var catalogs: [String]

    /// Settings; nothing set by default.
    public init(access: AccessLevel? = nil, typeAliases: Bool? = nil, catalogs: [String] = []) {
        self.access = access
        self.typeAliases = typeAliases
        self.catalogs = catalogs
    }

    /// The keys the file may have.
    static let keys = ["access", "typeAliases", "catalogs"]

    /// Reads the settings in `bytes` (the file at `path`). A problem is a
    /// diagnostic (rule `codegen-settings`): at its place for JSON syntax, at
    /// the file's start otherwise, since parsed JSON keeps no positions; the
    /// message names the key.
    public static func decode(_ bytes: [UInt8], path: String) -> (settings: CodegenSettings, diagnostics: [Diagnostic]) {
        let start = SourceLocation(file: path, line: 1, column: 1)
        func problem(_ message: String, at location: SourceLocation = start) -> Diagnostic {
            Diagnostic(.error, rule: CodegenRuleID.settings, message, at: location)
        }
        let value: JSONValue
        do {
            value = try JSONParser(maxDepth: 8, maxSize: maxSize).parse(bytes)
        } catch {
            return (CodegenSettings(), [problem("\(error.message) (\(fileName) is JSON)", at: SourceLocation(file: path, line: error.line, column: error.column))])
        }
        guard case .object(let members) = value else {
            return (CodegenSettings(), [problem("\(fileName) holds a JSON object, like {\"access\": \"public\"}")])
        }
        var settings = CodegenSettings()
        var diagnostics: [Diagnostic] = []
        for (key, member) in members {
            switch key {
            case "access":
                if case .string(let text) = member, let access = AccessLevel(rawValue: text) {
                    settings.access = access
                } else {
                    diagnostics.append(problem("\"access\" is one of \(AccessLevel.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"))
                }
            case "typeAliases":
                if case .bool(let flag) = member {
                    settings.typeAliases = flag
                } else {
                    diagnostics.append(problem("\"typeAliases\" is true or false"))
                }
            case "catalogs":
                if case .array(let items) = member, let paths = Self.paths(items) {
                    settings.catalogs = paths
                } else {
                    diagnostics.append(problem("\"catalogs\" is a list of catalog paths, relative to \(fileName): [\"../../Catalogs/shop/catalog.yaml\"]"))
                }
            default:
                let hint = Suggestion.nearest(to: key, in: keys).map { "did you mean \"\($0)\"? " } ?? ""
                diagnostics.append(problem("unknown key \"\(key)\" in \(fileName); \(hint)the keys are \(keys.map { "\"\($0)\"" }.joined(separator: ", "))"))
            }
        }
        return (settings, diagnostics)
    }

    /// The paths of a `catalogs` list, or nil when an item is not a non-empty string.
    private static func paths(_ items: [JSONValue]) -> [String]? {
        var paths: [String] = []
        for item in items {
            guard case .string(let path) = item, !path.isEmpty else { return nil }
            paths.append(path)
        }
        return paths
    }
}
