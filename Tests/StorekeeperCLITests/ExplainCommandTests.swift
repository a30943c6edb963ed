import Foundation
import Testing

/// `storekeeper explain`, end to end.
@Suite struct ExplainCommandTests {
    static let catalog = "Catalogs/rocket-racer/catalog.yaml"
    static let canyon = "com.example.rocketracer.tracks.canyon"

    @Test("text: a product's plans, with the rules that changed them and where")
    func text() async throws {
        let result = try await CLI.run(["explain", Self.catalog, "--product", Self.canyon], in: PackagePaths.root)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            com.example.rocketracer.tracks.canyon · non-consumable · built-in · persist receipt · restore restore-transactions
              purchasing                  notify → waits
              deferred                    notify → waits
              purchased                   download → persist → unlock → notify → finish
              restored                    download → notify → finish
                rule 'track-pack-restored' (Catalogs/rocket-racer/catalog.yaml:274:5): notify
              failed (any other error)    present-error → finish
              failed (payment-cancelled)  finish
                rule 'quiet-cancel' (Catalogs/rocket-racer/catalog.yaml:269:5): finish

            """)
    }

    @Test("--state keeps one state; json is the same for tools")
    func stateAndJSON() async throws {
        let result = try await CLI.run(["explain", Self.catalog, "--state", "purchased", "--format", "json"], in: PackagePaths.root)
        #expect(result.status == 0, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let products = try #require(document["products"] as? [[String: Any]])
        #expect(products.count == 15)
        for product in products {
            let plans = try #require(product["plans"] as? [[String: Any]])
            #expect(plans.map { $0["label"] as? String } == ["purchased"])
        }
        let coins = try #require(products.first { $0["id"] as? String == "com.example.rocketracer.coins.500" })
        let steps = try #require((coins["plans"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])
        #expect(steps.map { $0["step"] as? String } == ["persist", "grant", "audit-log", "notify", "finish"])
        #expect(steps[2]["origin"] as? String == "rule" && steps[2]["line"] as? Int == 282)
    }

    @Test("mermaid: a state diagram with the plan on each edge")
    func mermaid() async throws {
        let result = try await CLI.run(["explain", Self.catalog, "--product", Self.canyon, "--format", "mermaid"], in: PackagePaths.root)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "stateDiagram-v2")
        #expect(lines.contains("    purchased --> finished : download → persist → unlock → notify → finish"))
        #expect(lines.contains("    note right of deferred : notify, then waits"))
    }

    @Test("a compiled policy explains exactly as its catalog")
    func fromCompiledPolicy() async throws {
        let workspace = try Workspace()
        let policy = workspace.url.appendingPathComponent("policy.json").path
        let compile = try await CLI.run(["compile", Self.catalog, "-o", policy], in: PackagePaths.root)
        #expect(compile.status == 0, "\(compile)")
        for format in ["text", "json", "mermaid"] {
            let fromCatalog = try await CLI.run(["explain", Self.catalog, "--format", format], in: PackagePaths.root)
            let fromPolicy = try await CLI.run(["explain", policy, "--format", format], in: PackagePaths.root)
            #expect(fromPolicy.status == 0, "\(fromPolicy)")
            #expect(fromPolicy.stdout == fromCatalog.stdout, "\(format)")
        }
    }

    @Test("an unknown product exits 2 with the nearest id; a damaged policy exits 1 saying where")
    func errors() async throws {
        let unknown = try await CLI.run(["explain", Self.catalog, "--product", "com.example.rocketracer.tracks.canyn"], in: PackagePaths.root)
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "storekeeper: error: no product 'com.example.rocketracer.tracks.canyn' in the catalog; did you mean 'com.example.rocketracer.tracks.canyon'?\n")
        let workspace = try Workspace()
        try workspace.write("policy.json", "{\"format\": \"storekeeper-policy\", \"version\": 7}")
        let damaged = try await workspace.run("explain", "policy.json")
        #expect(damaged.status == 1)
        #expect(damaged.stderr.contains("policy.json: error: version: format version 7 cannot be read (a newer storekeeper wrote it)"), "\(damaged.stderr)")
        let badState = try await CLI.run(["explain", Self.catalog, "--state", "bought"], in: PackagePaths.root)
        #expect(badState.status == 2)
    }

    @Test("the README shows explain's real text and Mermaid output for the coins")
    func readmeIsCurrent() async throws {
        let readme = try String(contentsOf: PackagePaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let coins = "com.example.rocketracer.coins.500"
        let text = try await CLI.run(["explain", Self.catalog, "--product", coins], in: PackagePaths.root)
        let mermaid = try await CLI.run(["explain", Self.catalog, "--product", coins, "--format", "mermaid"], in: PackagePaths.root)
        #expect(text.status == 0 && mermaid.status == 0)
        #expect(readme.contains("```\n" + text.stdout + "```"), "README's explain example is stale:\n\(text.stdout)")
        #expect(readme.contains("```mermaid\n" + mermaid.stdout + "```"), "README's Mermaid example is stale:\n\(mermaid.stdout)")
    }
}
