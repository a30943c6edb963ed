import StorekeeperCompiler
import StorekeeperCore
import StorekeeperRuntime

/// The compiled format's promise: what `PolicyEncoder` writes, `PolicyDecoder`
/// reads back (with the plugins the policy was made with) into a policy that
/// writes the same text again; and every policy that loads can be explained.
public enum PolicyRoundTrip {
    /// Checks `policy`, which came from `source` (for the failure message).
    public static func check(_ policy: CompiledPolicy, source: String) {
        let text = PolicyEncoder().encode(policy)
        FuzzCheck.requireJSON(text, from: "PolicyEncoder")
        let decoded: CompiledPolicy
        do {
            decoded = try PolicyDecoder(plugins: policy.plugins).decode(text)
        } catch {
            FuzzCheck.fail("PolicyDecoder refuses what PolicyEncoder wrote for a policy from \(source): \(error)\n\(text)")
        }
        let again = PolicyEncoder().encode(decoded)
        FuzzCheck.require(again == text, "a policy from \(source) does not survive PolicyEncoder → PolicyDecoder → PolicyEncoder:\n\(text)\n---\n\(again)")
        explain(decoded)
    }

    /// Renders the explanation of every product, as `storekeeper explain` does.
    public static func explain(_ policy: CompiledPolicy) {
        guard let explanation = try? PolicyExplanation(policy) else {
            FuzzCheck.fail("a policy that loads cannot be explained")
        }
        _ = ExplanationTextRenderer().render(explanation)
        _ = ExplanationMermaidRenderer().render(explanation)
        FuzzCheck.requireJSON(ExplanationJSONRenderer().render(explanation), from: "ExplanationJSONRenderer")
    }
}
