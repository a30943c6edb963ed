import Foundation
import Logging
import StorekeeperServer
import StorekeeperVerification

extension ServeSettings {
    /// Reads every setting from `layers` (flags, then environment, then the file), checking each
    /// value and naming where a wrong one came from.
    static func resolve(_ layers: SettingsLayers) throws(UsageError) -> ServeSettings {
        var origins: [String: SettingsLayers.Origin] = [:]
        func note<Value>(_ key: SettingKey, _ resolved: SettingsLayers.Resolved<Value>?) -> SettingsLayers.Resolved<Value>? {
            if let resolved { origins[key.name] = resolved.origin }
            return resolved
        }

        guard let policy = note(.policy, try layers.string(.policy)) else {
            throw UsageError(
                "no policy: give --policy PATH (a catalog, e.g. Catalogs/daily-planet/catalog.yaml, or a compiled policy's JSON), \(SettingKey.policy.environmentVariable), or \"policy\" in the --config file")
        }
        let host = note(.host, try layers.string(.host))
        if let host, host.value.isEmpty { throw UsageError("\(host.origin) is empty; give an address to listen on, e.g. 127.0.0.1 or 0.0.0.0") }
        let port = note(.port, try layers.int(.port))
        if let port, !(0...65_535).contains(port.value) {
            throw UsageError("\(port.origin) \(port.value) is not a port; give 1 to 65535, or 0 for any free port")
        }
        let database = try note(.database, try layers.string(.database)).map { resolved throws(UsageError) in
            try DatabaseLocation(parsing: resolved.value, origin: resolved.origin.description)
        } ?? DatabaseLocation.defaultValue
        let schema = note(.databaseSchema, try layers.string(.databaseSchema))
        if let schema {
            guard case .postgres = database else { throw UsageError("\(schema.origin) names a schema, which only a postgres:// database has") }
            let valid = schema.value.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
                && schema.value.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            guard valid, schema.value.utf8.count <= 63 else {
                throw UsageError("\(schema.origin) '\(schema.value)' is not a schema name; use letters, digits and _, starting with a letter or _, at most 63")
            }
        }
        let connections = note(.databaseConnections, try layers.int(.databaseConnections))
        if let connections, !(1...1_000).contains(connections.value) {
            throw UsageError("\(connections.origin) \(connections.value) is not a number of connections; give 1 to 1000")
        }
        let bundleID = note(.bundleID, try layers.string(.bundleID))
        if let bundleID, bundleID.value.isEmpty { throw UsageError("\(bundleID.origin) is empty; give the app's bundle id, e.g. com.example.app") }
        let appAppleID = note(.appAppleID, try layers.int(.appAppleID))
        if let appAppleID, appAppleID.value <= 0 {
            throw UsageError("\(appAppleID.origin) \(appAppleID.value) is not an App Store id; give the app's Apple ID from App Store Connect, a positive number")
        }
        let environments = try note(.environment, try layers.strings(.environment)).map { resolved throws(UsageError) in
            try parseEnvironments(resolved.value, origin: resolved.origin)
        } ?? (appAppleID == nil ? [.sandbox] : [.production])
        if environments.contains(.production), appAppleID == nil {
            throw UsageError(
                "the production environment needs the app's App Store id (production notifications are checked against it); give --app-apple-id, \(SettingKey.appAppleID.environmentVariable) or \"app-apple-id\" in the --config file")
        }
        let roots = note(.root, try layers.strings(.root))?.value ?? []
        if let empty = roots.firstIndex(where: \.isEmpty) { throw UsageError("\(origins[SettingKey.root.name]?.description ?? "--root") has an empty path (item \(empty + 1))") }
        let verifyReceiptURL = try url(note(.verifyReceiptURL, try layers.string(.verifyReceiptURL)))
        let verifyReceiptSandboxURL = try url(note(.verifyReceiptSandboxURL, try layers.string(.verifyReceiptSandboxURL)))
        let logLevel = try note(.logLevel, try layers.string(.logLevel)).map { resolved throws(UsageError) in
            try Logger.Level(setting: resolved.value, origin: resolved.origin.description)
        } ?? .info
        let logFormat = try note(.logFormat, try layers.string(.logFormat)).map { resolved throws(UsageError) in
            guard let format = LogFormat(rawValue: resolved.value.lowercased()) else {
                throw UsageError("\(resolved.origin) '\(resolved.value)' is not a log format; write logfmt or json")
            }
            return format
        } ?? .logfmt
        let restore = try note(.restoreByAnotherUser, try layers.string(.restoreByAnotherUser)).map { resolved throws(UsageError) in
            guard let policy = RestoreByAnotherUser(rawValue: resolved.value) else {
                throw UsageError(
                    "\(resolved.origin) '\(resolved.value)' is not a restore policy; write \(RestoreByAnotherUser.allCases.map(\.rawValue).joined(separator: " or "))")
            }
            return policy
        } ?? .keepWithOriginal
        let idleTimeout = note(.idleTimeout, try layers.int(.idleTimeout))
        if let idleTimeout, !(1...86_400).contains(idleTimeout.value) {
            throw UsageError("\(idleTimeout.origin) \(idleTimeout.value) is not an idle timeout; give 1 to 86400 seconds")
        }
        let maximumConnections = note(.maximumConnections, try layers.int(.maximumConnections))
        if let maximumConnections, !(1...1_000_000).contains(maximumConnections.value) {
            throw UsageError("\(maximumConnections.origin) \(maximumConnections.value) is not a number of connections; give 1 to 1000000")
        }
        let content = note(.content, try layers.string(.content))
        if let content, content.value.isEmpty { throw UsageError("\(content.origin) is empty; give the folder the content is served from") }

        let receiptSharedSecret = note(.receiptSharedSecret, try layers.secret(.receiptSharedSecret))
        // Receipts are verified only with the app's shared secret; an endpoint given without it would be ignored silently.
        if receiptSharedSecret == nil, let given = [SettingKey.verifyReceiptURL, .verifyReceiptSandboxURL].first(where: { origins[$0.name] != nil }) {
            throw UsageError(
                "\(origins[given.name]?.description ?? given.name) is given, but receipts are not verified without the app's shared secret: set \(SettingKey.receiptSharedSecret.environmentVariable) (or its _FILE), or \"\(SettingKey.receiptSharedSecret.name)\" in the --config file")
        }

        return ServeSettings(
            policyPath: policy.value,
            host: host?.value ?? defaultHost,
            port: port?.value ?? defaultPort,
            database: database,
            databaseSchema: schema?.value,
            databaseConnections: connections?.value ?? defaultDatabaseConnections,
            bundleID: bundleID?.value,
            appAppleID: appAppleID.map { Int64($0.value) },
            environments: environments,
            roots: roots,
            clientTokenSecret: note(.clientTokenSecret, try layers.secret(.clientTokenSecret))?.value,
            operatorKey: note(.operatorKey, try layers.secret(.operatorKey))?.value,
            receiptSharedSecret: receiptSharedSecret?.value,
            verifyReceiptURL: verifyReceiptURL ?? productionVerifyReceiptURL,
            verifyReceiptSandboxURL: verifyReceiptSandboxURL ?? sandboxVerifyReceiptURL,
            contentFolder: content?.value,
            restoreByAnotherUser: restore,
            idleTimeout: idleTimeout?.value ?? defaultIdleTimeout,
            maximumConnections: maximumConnections?.value ?? defaultMaximumConnections,
            logLevel: logLevel,
            logFormat: logFormat,
            origins: origins)
    }

    /// `production` and `sandbox`, any case, each at most once.
    static func parseEnvironments(_ names: [String], origin: SettingsLayers.Origin) throws(UsageError) -> [SignedDataVerifier.Environment] {
        guard !names.isEmpty else { throw UsageError("\(origin) names no environment; give production, sandbox or both") }
        var environments: [SignedDataVerifier.Environment] = []
        for name in names {
            let environment: SignedDataVerifier.Environment
            switch name.trimmingCharacters(in: .whitespaces).lowercased() {
            case "production": environment = .production
            case "sandbox": environment = .sandbox
            default: throw UsageError("\(origin) '\(name)' is not an environment; write production or sandbox")
            }
            if !environments.contains(environment) { environments.append(environment) }
        }
        return environments
    }

    /// An http:// or https:// URL, for verifyReceipt's endpoints.
    private static func url(_ resolved: SettingsLayers.Resolved<String>?) throws(UsageError) -> String? {
        guard let resolved else { return nil }
        let lowered = resolved.value.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"), resolved.value.count > "https://".count else {
            throw UsageError("\(resolved.origin) '\(DatabaseLocation.redacting(resolved.value))' is not an http:// or https:// URL")
        }
        return resolved.value
    }
}
