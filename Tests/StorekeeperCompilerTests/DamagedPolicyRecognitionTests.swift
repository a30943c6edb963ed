import Foundation
import StorekeeperCatalog
@testable import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperRuntime
import Testing

/// Issue 16: a compiled policy damaged on its way (cut short, a comma
/// doubled, its `format` misspelt or gone) is still a policy to
/// `PolicyRecognition`, and `PolicyLoader` reports the policy reader's one
/// error (where in the JSON, what was expected), never catalog errors.
@Suite struct DamagedPolicyRecognitionTests {
    /// A compiled policy, as `storekeeper compile` writes it.
    func policy() throws -> String {
        try PolicyHardeningTests().policy()
    }

    /// Whether `PolicyRecognition` takes `text` for a policy (a value of its
    /// own, so that a failure does not print the text's every byte).
    func recognised(_ text: String) -> Bool {
        PolicyRecognition.isCompiledPolicy(Array(text.utf8))
    }

    /// The error `PolicyLoader` gives for `text`, named `name`; records an
    /// issue when the file is loaded, or refused as a catalog.
    func policyError(_ text: String, name: String = "policy.json", sourceLocation: Testing.SourceLocation = #_sourceLocation) -> PolicyLoadError? {
        let error = #expect(throws: PolicyLoaderError.self, sourceLocation: sourceLocation) {
            try PolicyLoader(reader: InMemorySourceReader([name: text])).load(contentsOf: name)
        }
        guard case .invalidPolicy(let path, let policyError)? = error else {
            Issue.record("not reported as a policy: \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        #expect(path == name, sourceLocation: sourceLocation)
        return policyError
    }

    /// Cut just after the first `marker`: between members, inside a key, before the last brace.
    @Test(arguments: ["\"catalog\": \"engine\",", "\"situa", "\"plans\": ["])
    func aPolicyCutShortIsAPolicyEndingEarly(marker: String) throws {
        let text = try policy()
        let end = try #require(text.range(of: marker)).upperBound
        let cut = String(text[..<end])
        let isPolicy = recognised(cut)
        #expect(isPolicy)
        let error = policyError(cut)
        #expect(error?.line == cut.split(separator: "\n", omittingEmptySubsequences: false).count, "at the end: \(String(describing: error))")
        #expect(error?.message.contains("end of the input") == true, "\(String(describing: error))")
    }

    @Test(arguments: ["{\n  \"format\": \"storekeeper-po", "{\n  \"format\": \"s", "{\"format\": \"storekeeper-policy\""])
    func aPolicyCutShortInItsFormatIsAPolicy(text: String) {
        let isPolicy = recognised(text)
        #expect(isPolicy)
        let error = policyError(text)
        #expect(error?.line == text.split(separator: "\n").count, "\(String(describing: error))")
        #expect(error?.message.contains("end of the input") == true, "\(String(describing: error))")
    }

    @Test func aDoubledCommaIsReportedWhereItIs() throws {
        let text = try policy().replacingOccurrences(of: "\"catalog\": \"engine\",", with: "\"catalog\": \"engine\",,")
        #expect(text.contains(",,"))
        let isPolicy = recognised(text)
        #expect(isPolicy)
        let error = policyError(text)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(",,") }) + 1
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.column == text.split(separator: "\n", omittingEmptySubsequences: false)[line - 1].count, "\(String(describing: error))")
        #expect(error?.message.contains("expected a string key after ','") == true, "\(String(describing: error))")
    }

    @Test(arguments: ["storekeeper-polcy", "storekeeper_policy", "Storekeeper-Policy", "storekeeper policy", "storekeper-polcy", "storekeeperpolicy"])
    func aMisspeltFormatIsAPolicyThatSaysWhatItMeant(format: String) throws {
        let text = try policy().replacingOccurrences(of: "\"format\": \"storekeeper-policy\"", with: "\"format\": \"\(format)\"")
        let isPolicy = recognised(text)
        #expect(isPolicy)
        #expect(PolicyFormat.isNamed(by: format))
        let error = policyError(text)
        #expect(error?.path == "format", "\(String(describing: error))")
        #expect(error?.message.contains("\"\(format)\"") == true, "\(String(describing: error))")
        #expect(error?.message.contains("did you mean \"storekeeper-policy\"?") == true, "\(String(describing: error))")
    }

    @Test(arguments: ["plans", "situations"])
    func aPolicyWithoutItsFormatIsAPolicyMissingIt(member: String) throws {
        let text = try PolicyHardeningTests().policy { members in
            members.removeAll { $0.key == "format" }
            members.removeAll { $0.key != member && $0.key != "catalog" }
        }
        let isPolicy = recognised(text)
        #expect(isPolicy)
        let error = policyError(text)
        #expect(error?.path == "format", "\(String(describing: error))")
        #expect(error?.message.contains("missing: this is not a compiled policy without \"format\": \"storekeeper-policy\"") == true, "\(String(describing: error))")
    }

    /// JSON that is no policy stays a catalog: a `format` far from the
    /// policy's, a catalog's `format: 1` beside a `plans` it should not have,
    /// a policy's members below the top.
    @Test(arguments: [
        #"{"format": "sarif", "plans": []}"#, #"{"catalog": "shop", "format": 1, "plans": []}"#,
        #"{"catalog": "shop", "products": [{"plans": [], "situations": []}]}"#, #"{"format": "storekeeper-catalog"}"#,
        #"{"format": "storekeeper-policy-and-then-a-great-deal-more"}"#, #"{"format": ""}"#,
    ])
    func jsonThatIsNoPolicyStaysACatalog(text: String) {
        let isPolicy = recognised(text)
        #expect(!isPolicy, "\(text)")
        let error = #expect(throws: PolicyLoaderError.self) { try PolicyLoader(reader: InMemorySourceReader(["x.json": text])).load(contentsOf: "x.json") }
        guard case .invalidCatalog? = error else { Issue.record("\(text): \(String(describing: error))"); return }
    }
}
