import ArgumentParser
import Foundation
import StorekeeperServer

/// `storekeeper-server token --user ID`: a client token for a user, signed with the configured
/// client token secret (read as `serve` reads it: the environment or the --config file), for an
/// operator's tests and for apps whose own sign-in does not issue tokens yet.
struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Issue a client token (HS256 JWT) for a user, with the configured client token secret.",
        discussion: """
            The secret comes from STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET, STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET_FILE \
            or the --config file, as for serve. Prints the token. Exit status 2 when it cannot be issued.
            """
    )

    /// The longest life a token may be given: a year.
    static let maximumLifetime = 365 * 86_400

    @Option(help: ArgumentHelp("The app's user id, the token's subject (1 to 256 bytes).", valueName: "id"))
    var user: String

    @Option(name: .customLong("expires-in"), help: ArgumentHelp("Seconds until it expires. Default: 3600.", valueName: "seconds"))
    var expiresIn = 3_600

    @Option(help: ArgumentHelp("A JSON file of settings, as serve's --config.", valueName: "file"))
    var config: String?

    func run() async throws {
        guard (1...Self.maximumLifetime).contains(expiresIn) else {
            throw UsageError("--expires-in \(expiresIn) is not a lifetime; give 1 to \(Self.maximumLifetime) seconds")
        }
        let environment = ProcessInfo.processInfo.environment
        let configFile = config ?? environment.first { $0.key.uppercased() == SettingKey.config.environmentVariable }?.value
        let layers = try await SettingsLayers.make(flags: [:], environment: environment, configFile: configFile)
        let key = SettingKey.clientTokenSecret
        guard let secret = try layers.secret(key) else {
            throw UsageError("no client token secret: set \(key.environmentVariable), \(key.environmentVariable)_FILE or \"\(key.name)\" in the --config file, as for serve")
        }
        do {
            let token = try ClientToken.issue(
                user: user, expiresAt: Date().addingTimeInterval(TimeInterval(expiresIn)), secret: ClientTokenSecret(secret.value.revealed))
            StandardStreams.writeOutput(token + "\n")
        } catch let failure as ClientTokenSecret.TooShort {
            throw UsageError("\(secret.origin): \(failure)")
        } catch {
            throw UsageError("--user: \(error)")
        }
    }
}
