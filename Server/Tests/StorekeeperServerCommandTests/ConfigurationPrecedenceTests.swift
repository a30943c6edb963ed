import Foundation
import StorekeeperServerTestSupport
import Testing

/// `serve`'s settings from flags, environment and a JSON file, in that order of precedence, checked
/// through `--print-configuration` (which resolves everything and serves nothing).
@Suite struct ConfigurationPrecedenceTests {
    /// The line of `name` in the printed configuration (`port = 8080 (--port)`).
    private func line(_ name: String, in result: CommandResult) -> String? {
        result.stdout.split(separator: "\n").first { $0.hasPrefix("\(name) = ") }.map(String.init)
    }

    private func printConfiguration(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandResult {
        try await ServerExecutable.run(["serve", "--print-configuration"] + arguments, environment: ServerExecutable.environment(environment))
    }

    @Test func aFlagBeatsTheEnvironmentWhichBeatsTheFile() async throws {
        try await ScratchFolder.with { folder in
            let file = try folder.writing(#"{"policy": "from-file.yaml", "port": 3333, "log-level": "debug", "bundle-id": "com.file.app"}"#, to: "server.json")
            let environment = ["STOREKEEPER_SERVER_PORT": "2222", "STOREKEEPER_SERVER_LOG_LEVEL": "warning"]

            let all = try await printConfiguration(["--config", file, "--port", "1111"], environment: environment)
            #expect(all.status == 0, "\(all)")
            #expect(line("port", in: all) == "port = 1111 (--port)", "\(all)")
            #expect(line("log-level", in: all) == "log-level = warning (STOREKEEPER_SERVER_LOG_LEVEL)", "\(all)")
            #expect(line("policy", in: all) == "policy = from-file.yaml (\"policy\" in \(file))", "\(all)")
            #expect(line("bundle-id", in: all) == "bundle-id = com.file.app (\"bundle-id\" in \(file))", "\(all)")
            #expect(line("host", in: all) == "host = 127.0.0.1 (default)", "\(all)")

            let noFlag = try await printConfiguration(["--config", file], environment: environment)
            #expect(line("port", in: noFlag) == "port = 2222 (STOREKEEPER_SERVER_PORT)", "\(noFlag)")

            let fileOnly = try await printConfiguration(["--config", file])
            #expect(line("port", in: fileOnly) == "port = 3333 (\"port\" in \(file))", "\(fileOnly)")
            #expect(line("log-level", in: fileOnly) == "log-level = debug (\"log-level\" in \(file))", "\(fileOnly)")
        }
    }

    @Test func theConfigFileCanBeNamedByTheEnvironment() async throws {
        try await ScratchFolder.with { folder in
            let file = try folder.writing(#"{"policy": "p.json", "bundle-id": "com.env.file"}"#, to: "server.json")
            let result = try await printConfiguration([], environment: ["STOREKEEPER_SERVER_CONFIG": file])
            #expect(result.status == 0, "\(result)")
            #expect(line("bundle-id", in: result) == "bundle-id = com.env.file (\"bundle-id\" in \(file))", "\(result)")
        }
    }

    @Test func listsComeFromRepeatedFlagsCommasOrArrays() async throws {
        try await ScratchFolder.with { folder in
            let file = try folder.writing(#"{"policy": "p.yaml", "environment": ["sandbox"], "app-apple-id": 1234}"#, to: "server.json")
            let flags = try await printConfiguration(["--config", file, "--environment", "production", "--environment", "sandbox"])
            #expect(line("environment", in: flags) == "environment = production, sandbox (--environment)", "\(flags)")
            let variable = try await printConfiguration(["--config", file], environment: ["STOREKEEPER_SERVER_ENVIRONMENT": "production,sandbox"])
            #expect(line("environment", in: variable) == "environment = production, sandbox (STOREKEEPER_SERVER_ENVIRONMENT)", "\(variable)")
            let array = try await printConfiguration(["--config", file])
            #expect(line("environment", in: array) == "environment = sandbox (\"environment\" in \(file))", "\(array)")
        }
    }

    @Test func secretsAreHiddenAndTheDatabasePasswordToo() async throws {
        try await ScratchFolder.with { folder in
            let keyFile = try folder.writing("operator-key-from-a-file-0123456789\n", to: "operator-key")
            let result = try await printConfiguration(
                ["--policy", "p.yaml", "--database", "postgres://ledger:pa55-w0rd-in-url@db.internal:5432/ledger"],
                environment: [
                    "STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": "client-token-secret-from-the-environment-0123",
                    "STOREKEEPER_SERVER_OPERATOR_KEY_FILE": keyFile,
                ])
            #expect(result.status == 0, "\(result)")
            #expect(line("client-token-secret", in: result) == "client-token-secret = *** (STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET)", "\(result)")
            #expect(line("operator-key", in: result) == "operator-key = *** (STOREKEEPER_SERVER_OPERATOR_KEY_FILE)", "\(result)")
            #expect(line("receipt-shared-secret", in: result) == "receipt-shared-secret = (not set) (default)", "\(result)")
            #expect(line("database", in: result) == "database = postgres://ledger:***@db.internal:5432/ledger (--database)", "\(result)")
            for secret in ["client-token-secret-from-the-environment-0123", "operator-key-from-a-file-0123456789", "pa55-w0rd-in-url"] {
                #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "\(secret) shown: \(result)")
            }
        }
    }

    @Test(arguments: ["--client-token-secret", "--operator-key", "--receipt-shared-secret"])
    func aSecretIsNeverAFlag(flag: String) async throws {
        let result = try await printConfiguration(["--policy", "p.yaml", flag, "hunter2-hunter2"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("\(flag) is not accepted: a command line is visible to every user of the machine"), "\(result)")
        #expect(!result.stderr.contains("hunter2"), "\(result)")
    }

    @Test(arguments: [
        ([String](), [String: String](), "no policy: give --policy PATH"),
        (["--policy", "p.yaml", "--port", "70000"], [:], "--port 70000 is not a port"),
        (["--policy", "p.yaml"], ["STOREKEEPER_SERVER_PORT": "eighty"], "STOREKEEPER_SERVER_PORT is not an integer"),
        (["--policy", "p.yaml"], ["STOREKEEPER_SERVER_PROT": "8080"], "the environment variable STOREKEEPER_SERVER_PROT names no setting"),
        (["--policy", "p.yaml", "--database", "mysql://root:topsecret@db/ledger"], [:], "--database 'mysql://root:***@db/ledger' is neither sqlite:PATH nor a postgres:// URL"),
        (["--policy", "p.yaml", "--database", "sqlite:"], [:], "--database 'sqlite:' names no file"),
        (["--policy", "p.yaml", "--database-schema", "ledger"], [:], "--database-schema names a schema, which only a postgres:// database has"),
        (["--policy", "p.yaml", "--environment", "staging"], [:], "--environment 'staging' is not an environment; write production or sandbox"),
        (["--policy", "p.yaml", "--environment", "production"], [:], "the production environment needs the app's App Store id"),
        (["--policy", "p.yaml", "--log-level", "loud"], [:], "--log-level 'loud' is not a log level"),
        (["--policy", "p.yaml"], ["STOREKEEPER_SERVER_RESTORE_BY_ANOTHER_USER": "share"], "STOREKEEPER_SERVER_RESTORE_BY_ANOTHER_USER 'share' is not a restore policy; write keep-with-original or transfer"),
        (["--policy", "p.yaml", "--log-format", "xml"], [:], "--log-format 'xml' is not a log format; write logfmt or json"),
        (["--policy", "p.yaml", "--verify-receipt-url", "ftp://example.com"], [:], "--verify-receipt-url 'ftp://example.com' is not an http:// or https:// URL"),
        (["--policy", "p.yaml", "--port", "eighty"], [:], "--port"),
    ])
    func wrongSettingsExitTwoNamingWhereTheyCameFrom(arguments: [String], environment: [String: String], expected: String) async throws {
        let result = try await printConfiguration(arguments, environment: environment)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(expected), "\(result)")
        #expect(!result.stderr.contains("topsecret"), "\(result)")
    }

    @Test func wrongFileContentsExitTwoNamingTheFileAndKey() async throws {
        try await ScratchFolder.with { folder in
            let cases: [(String, String)] = [
                (#"{"policy": "p.yaml", "prot": 8080}"#, "has the key \"prot\", which names no setting"),
                (#"{"policy": "p.yaml", "port": "8080"}"#, "\"port\" in FILE is not an integer (write a JSON number, without quotes)"),
                (#"{"policy": "p.yaml", "environment": "sandbox"}"#, "\"environment\" in FILE is not an array of strings"),
                (#"{"policy": "p.yaml",}"#, "FILE:1:"),
                ("[1, 2]", "is not a JSON object"),
            ]
            for (index, (text, expected)) in cases.enumerated() {
                let file = try folder.writing(text, to: "server-\(index).json")
                let result = try await printConfiguration(["--config", file])
                #expect(result.status == 2, "\(text): \(result)")
                #expect(result.stderr.contains(expected.replacingOccurrences(of: "FILE", with: file)), "\(text): \(result)")
            }
            let missing = try await printConfiguration(["--config", folder.appendingPathComponent("absent.json").path])
            #expect(missing.status == 2, "\(missing)")
            #expect(missing.stderr.contains("absent.json cannot be read"), "\(missing)")
        }
    }

    @Test func aSecretAndItsFileInOneLayerAreRefused() async throws {
        try await ScratchFolder.with { folder in
            let keyFile = try folder.writing("k", to: "key")
            let result = try await printConfiguration(
                ["--policy", "p.yaml"],
                environment: ["STOREKEEPER_SERVER_OPERATOR_KEY": "operator-key-in-env", "STOREKEEPER_SERVER_OPERATOR_KEY_FILE": keyFile])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("STOREKEEPER_SERVER_OPERATOR_KEY and STOREKEEPER_SERVER_OPERATOR_KEY_FILE both give the operator-key"), "\(result)")
            #expect(!result.stderr.contains("operator-key-in-env"), "\(result)")
        }
    }
}
