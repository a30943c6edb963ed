import StorekeeperSimulatedStore
/// Compares what an `expect` wants with what a session has, and says how
/// they differ (nil when they agree).
enum ExpectationCheck {
    /// Exactly these members.
    static func sets(expected: Set<String>, found: Set<String>, noun: String) -> String? {
        guard expected != found else { return nil }
        var parts: [String] = []
        let missing = expected.subtracting(found).sorted()
        let unexpected = found.subtracting(expected).sorted()
        if !missing.isEmpty { parts.append("missing \(missing.joined(separator: ", "))") }
        if !unexpected.isEmpty { parts.append("not expected \(unexpected.joined(separator: ", "))") }
        return "expected \(noun) [\(expected.sorted().joined(separator: ", "))], found [\(found.sorted().joined(separator: ", "))]: \(parts.joined(separator: "; "))"
    }

    /// These balances (a balance never granted is 0); others are not checked.
    static func balances(expected: [String: Int], found: [String: Int]) -> String? {
        let wrong = expected.keys.sorted().compactMap { name -> String? in
            let amount = found[name] ?? 0
            return amount == expected[name] ? nil : "\(name): expected \(expected[name] ?? 0), found \(amount)"
        }
        return wrong.isEmpty ? nil : wrong.joined(separator: "; ")
    }

    /// The expected messages appear in this order among those found; an
    /// empty list means the UI was told nothing.
    static func told(expected: [String], found: [String]) -> String? {
        if expected.isEmpty, !found.isEmpty {
            return "expected the UI to be told nothing since the last expect; it was told \(found.map { "'\($0)'" }.joined(separator: ", "))"
        }
        var index = found.startIndex
        for message in expected {
            guard let match = found[index...].firstIndex(of: message) else {
                let context = found.isEmpty ? "the UI was told nothing since the last expect"
                    : "the UI was told, since the last expect: \(found.map { "'\($0)'" }.joined(separator: ", "))"
                let earlier = found[..<index].contains(message) ? " (it came earlier than the messages before it in the list)" : ""
                return "expected '\(message)'\(earlier); \(context)"
            }
            index = found.index(after: match)
        }
        return nil
    }
}
