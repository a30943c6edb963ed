import Configuration
import Foundation
import StorekeeperJSON
import SystemPackage

/// The three places a setting can come from, in their order of precedence: the flags given, then
/// the environment (`STOREKEEPER_SERVER_*`), then the `--config` JSON file. Each is one of
/// swift-configuration's providers (`InMemoryProvider`, `EnvironmentVariablesProvider` behind a
/// `KeyMappingProvider` that adds the prefix, `FileProvider<JSONSnapshot>`); a key is looked up in
/// each in turn, as swift-configuration's `ConfigReader` does, but here so that a value that cannot
/// be read is reported with the layer and the spelling it came from (`STOREKEEPER_SERVER_PORT`,
/// `"port" in /etc/server.json`) instead of falling back to a default without a word.
struct SettingsLayers: Sendable {
    /// Where a value came from, as the operator wrote it.
    enum Origin: Sendable, Hashable, CustomStringConvertible {
        case flag(String)
        case environment(String)
        case file(key: String, path: String)
        case defaultValue

        var description: String {
            switch self {
            case .flag(let flag): flag
            case .environment(let variable): variable
            case .file(let key, let path): "\"\(key)\" in \(path)"
            case .defaultValue: "default"
            }
        }
    }

    /// A value and where it came from.
    struct Resolved<Value: Sendable>: Sendable {
        var value: Value
        var origin: Origin
    }

    private enum Kind: Sendable {
        case flags
        case environment
        case file(String)
    }

    private let layers: [(kind: Kind, provider: any ConfigProvider)]

    /// The layers of one run: `flags` are the values given on the command line (only those given),
    /// `environment` the process's, `configFile` the path `--config` (or its variable) names.
    static func make(flags: [SettingKey: ConfigContent], environment: [String: String], configFile: String?) async throws(UsageError) -> SettingsLayers {
        try checkEnvironmentNames(environment)
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, content) in flags { values[key.configKey] = ConfigValue(content, isSecret: key.isSecret) }
        let secretVariables = Set(SettingKey.all.filter(\.isSecret).map(\.environmentVariable))
        let variables = EnvironmentVariablesProvider(
            environmentVariables: environment,
            secretsSpecifier: .dynamic { name, _ in secretVariables.contains(name.uppercased()) })
        var layers: [(kind: Kind, provider: any ConfigProvider)] = [
            (.flags, InMemoryProvider(name: "flags", values: values)),
            (.environment, KeyMappingProvider(upstream: variables) { $0.prepending(["storekeeper", "server"]) }),
        ]
        if let configFile {
            try checkFileKeys(configFile)
            let secretKeys = Set(SettingKey.all.filter(\.isSecret).map(\.name))
            do {
                let file = try await FileProvider<JSONSnapshot>(
                    parsingOptions: .init(secretsSpecifier: .dynamic { key, _ in secretKeys.contains(key) }),
                    filePath: .init(configFile))
                layers.append((.file(configFile), file))
            } catch {
                throw UsageError("--config \(configFile) could not be read as a JSON configuration file: \(error)")
            }
        }
        return SettingsLayers(layers: layers)
    }

    /// The first layer's string for `key`, or nil when no layer has one.
    func string(_ key: SettingKey) throws(UsageError) -> Resolved<String>? {
        try lookUp(key, type: .string, expected: "a string") { content in
            if case .string(let value) = content { value } else { nil }
        }
    }

    /// The first layer's integer for `key` (an environment variable's digits, a file's JSON number).
    func int(_ key: SettingKey) throws(UsageError) -> Resolved<Int>? {
        try lookUp(key, type: .int, expected: "an integer") { content in
            if case .int(let value) = content { value } else { nil }
        }
    }

    /// The first layer's list for `key`: a repeated flag, a comma-separated variable, a file's array of strings.
    func strings(_ key: SettingKey) throws(UsageError) -> Resolved<[String]>? {
        try lookUp(key, type: .stringArray, expected: "an array of strings") { content in
            if case .stringArray(let value) = content { value } else { nil }
        }
    }

    /// A secret: the first layer that has the secret itself or `<name>-file` (a file holding it, its
    /// trailing line break dropped). Both in one layer is an error: which one was meant is unclear.
    func secret(_ key: SettingKey) throws(UsageError) -> Resolved<Secret>? {
        guard let fileKey = key.fileKey else { return try string(key).map { Resolved(value: Secret($0.value), origin: $0.origin) } }
        for layer in layers.indices {
            let direct = try lookUp(key, type: .string, expected: "a string", in: layer) { if case .string(let v) = $0 { v } else { nil } }
            let path = try lookUp(fileKey, type: .string, expected: "a string", in: layer) { if case .string(let v) = $0 { v } else { nil } }
            switch (direct, path) {
            case (nil, nil):
                continue
            case (let direct?, nil):
                return Resolved(value: Secret(direct.value), origin: direct.origin)
            case (nil, let path?):
                return Resolved(value: try Self.readSecret(path.value, for: key, origin: path.origin), origin: path.origin)
            case (let direct?, let path?):
                throw UsageError("\(direct.origin) and \(path.origin) both give the \(key.name); give one")
            }
        }
        return nil
    }

    // MARK: Looking up

    private func lookUp<Value: Sendable>(
        _ key: SettingKey, type: ConfigType, expected: String, _ extract: (ConfigContent) -> Value?
    ) throws(UsageError) -> Resolved<Value>? {
        for layer in layers.indices {
            if let found = try lookUp(key, type: type, expected: expected, in: layer, extract) { return found }
        }
        return nil
    }

    private func lookUp<Value: Sendable>(
        _ key: SettingKey, type: ConfigType, expected: String, in index: Int, _ extract: (ConfigContent) -> Value?
    ) throws(UsageError) -> Resolved<Value>? {
        let layer = layers[index]
        let origin: Origin = switch layer.kind {
        case .flags: .flag(key.flag ?? "--\(key.name)")
        case .environment: .environment(key.environmentVariable)
        case .file(let path): .file(key: key.name, path: path)
        }
        let result: LookupResult
        do {
            result = try layer.provider.value(forKey: key.configKey, type: type)
        } catch {
            // The provider's error may quote the value, a secret's included: name the place only.
            throw UsageError("\(origin) is not \(expected)\(Self.hint(for: key, kind: layer.kind))")
        }
        guard let content = result.value?.content else { return nil }
        guard let value = extract(content) else {
            throw UsageError("\(origin) is not \(expected)\(Self.hint(for: key, kind: layer.kind))")
        }
        return Resolved(value: value, origin: origin)
    }

    private static func hint(for key: SettingKey, kind: Kind) -> String {
        switch (key, kind) {
        case (.environment, .environment), (.root, .environment): " (several values are separated by commas)"
        case (.environment, .file), (.root, .file): " (write a JSON array, [\"sandbox\", \"production\"])"
        case (.port, .file), (.appAppleID, .file), (.databaseConnections, .file), (.idleTimeout, .file), (.maximumConnections, .file):
            " (write a JSON number, without quotes)"
        default: ""
        }
    }

    private static func readSecret(_ path: String, for key: SettingKey, origin: Origin) throws(UsageError) -> Secret {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("\(origin) names \(path), which cannot be read; it should hold the \(key.name)")
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw UsageError("\(origin) names \(path), which is not UTF-8 text; it should hold the \(key.name)")
        }
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        guard !text.isEmpty else { throw UsageError("\(origin) names \(path), which is empty; it should hold the \(key.name)") }
        return Secret(text)
    }

    // MARK: Unknown names

    /// A `STOREKEEPER_SERVER_` variable that names no setting is a typo that would be ignored silently.
    private static func checkEnvironmentNames(_ environment: [String: String]) throws(UsageError) {
        let known = Set(SettingKey.known.map(\.environmentVariable) + [SettingKey.config.environmentVariable])
        let unknown = environment.keys.filter { $0.uppercased().hasPrefix("STOREKEEPER_SERVER_") && !known.contains($0.uppercased()) }.sorted()
        if let first = unknown.first {
            throw UsageError("the environment variable \(first) names no setting; known: \(known.sorted().joined(separator: ", "))")
        }
    }

    /// The configuration file: a JSON object whose members are all known settings (a misspelt key
    /// would be ignored silently). Checked with the strict parser, whose errors give a line and column.
    private static func checkFileKeys(_ path: String) throws(UsageError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("--config \(path) cannot be read; name a JSON file of settings")
        }
        let value: JSONValue
        do {
            value = try JSONParser(maxSize: 1 << 20).parse(Array(data))
        } catch {
            throw UsageError("--config \(path):\(error.line):\(error.column): \(error.message)")
        }
        guard case .object(let members) = value else {
            throw UsageError("--config \(path) is not a JSON object; write {\"port\": 8080, ...}")
        }
        let known = Set(SettingKey.known.map(\.name))
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw UsageError("--config \(path) has the key \"\(unknown.key)\", which names no setting; known: \(known.sorted().joined(separator: ", "))")
        }
    }
}
