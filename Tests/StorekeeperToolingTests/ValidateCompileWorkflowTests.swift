import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperRuntime
import StorekeeperTooling
import Testing

/// `Workflows.validate` and `Workflows.compile`, called as the CLI and the codegen tool call them.
@Suite struct ValidateCompileWorkflowTests {
    @Test("validate reports the format's errors and the policy rules', and --no-policy leaves the rules out")
    func validateRunsFormatThenRules() throws {
        let files = ["shop.yaml": TestCatalogs.shop(restore: "receipt-refresh")]
        let validation = try Workflows.validate(["shop.yaml"], options: TestCatalogs.options(files))
        #expect(validation.hasErrors)
        #expect(validation.report.diagnostics.map(\.rule) == ["consumable-restore"])
        #expect(validation.report.diagnostics.first?.location.file == "shop.yaml")

        let formatOnly = try Workflows.validate(["shop.yaml"], options: TestCatalogs.options(files, checksPolicy: false))
        #expect(formatOnly.report.diagnostics.isEmpty)
        #expect(!formatOnly.hasErrors)

        let misspelt = ["shop.yaml": TestCatalogs.shop(restore: "nonee")]
        let format = try Workflows.validate(["shop.yaml"], options: TestCatalogs.options(misspelt))
        #expect(format.report.diagnostics.map(\.rule) == ["invalid-value"])
        #expect(format.report.diagnostics.first?.location.line == 14)
    }

    @Test("validate fails to run, rather than reporting, when a path is missing")
    func validateMissingPath() {
        #expect(throws: WorkflowFailure.self) {
            try Workflows.validate(["absent.yaml"], options: TestCatalogs.options(["shop.yaml": TestCatalogs.shop()]))
        }
    }

    @Test("compile makes the policy of a valid catalog: its products, and a plan for each")
    func compileMakesThePolicy() throws {
        let compilation = try Workflows.compile("shop.yaml", options: TestCatalogs.options(["shop.yaml": TestCatalogs.shop()]))
        #expect(compilation.diagnostics.isEmpty)
        let policy = try #require(compilation.policy)
        #expect(policy.catalog == "shop")
        #expect(policy.products.map(\.id) == ["com.example.shop.coins"])
        #expect(!policy.plans.isEmpty)
    }

    @Test("compile refuses a catalog with errors and a plan that never finishes, saying why")
    func compileRefuses() throws {
        let broken = try Workflows.compile("shop.yaml", options: TestCatalogs.options(["shop.yaml": TestCatalogs.shop(restore: "receipt-refresh")]))
        #expect(broken.policy == nil)
        #expect(broken.report.diagnostics.map(\.rule) == ["consumable-restore"])

        let forgetful = TestCatalogs.shop(rules: """
            rules:
              - name: forget
                when: {state: purchased}
                do: [persist, notify]
            """)
        // Turned off in storekeeper.yml, the rule still stops the compiler.
        let files = ["shop.yaml": forgetful, "storekeeper.yml": "rules:\n  plan-never-finishes: off\n  finish-before-delivery: off\n"]
        let refused = try Workflows.compile("shop.yaml", options: TestCatalogs.options(files))
        #expect(!refused.validation.hasErrors)
        #expect(refused.policy == nil)
        #expect(refused.diagnostics.contains { $0.rule == "plan-never-finishes" && $0.severity == .error })
    }

    @Test("compile names the folder when it holds more than one catalog")
    func compileSeveralCatalogs() {
        let files = [
            "Catalogs/shop.yaml": TestCatalogs.shop(),
            "Catalogs/other.yaml": TestCatalogs.shop().replacingOccurrences(of: "catalog: shop", with: "catalog: other"),
        ]
        let failure = #expect(throws: WorkflowFailure.self) { try Workflows.compile("Catalogs", options: TestCatalogs.options(files)) }
        #expect(failure?.message == "Catalogs holds 2 catalogs (other, shop); name one catalog file")
    }
}
