import Foundation
import PostgresNIO

/// A `postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=MODE` URL read
/// into postgres-nio's client configuration. Errors never repeat the URL,
/// which holds the password.
enum PostgresURL {
    static func configuration(_ url: String) throws -> PostgresClient.Configuration {
        let form = "write postgres://USER:PASSWORD@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]"
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql"
        else { throw StorageError.configuration("the PostgreSQL URL is not a postgres:// URL; \(form)") }
        guard let host = components.host, !host.isEmpty else {
            throw StorageError.configuration("the PostgreSQL URL has no host; \(form)")
        }
        guard let user = components.percentEncodedUser?.removingPercentEncoding, !user.isEmpty else {
            throw StorageError.configuration("the PostgreSQL URL has no user; \(form)")
        }
        let password = components.percentEncodedPassword?.removingPercentEncoding
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw StorageError.configuration("the PostgreSQL URL names no database (its path is the database's name); \(form)")
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw StorageError.configuration("the PostgreSQL URL's port \(port) is not 1 to 65535") }
        let tls: PostgresClient.Configuration.TLS
        switch components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "disable" {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require": tls = .require(.makeClientConfiguration())
        case let other: throw StorageError.configuration("the PostgreSQL URL's sslmode '\(other)' is not disable, prefer or require")
        }
        if let unknown = components.queryItems?.first(where: { $0.name != "sslmode" }) {
            throw StorageError.configuration("the PostgreSQL URL's parameter '\(unknown.name)' is not known; only sslmode is read")
        }
        return PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
    }
}
