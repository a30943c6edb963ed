import ArgumentParser
// For `simulate`: not in the façade, which links no SQLite (see Package.swift).
import StorekeeperScenarios
import StorekeeperTooling

/// `simulate --seed N`: a whole number from 0 to 2^63 − 1, the range a
/// scenario's own `seed` takes, so that a seed copied from one to the other
/// always works.
///
/// The option reads its value unconditionally (`--seed -1` as `--seed=-1`):
/// by default ArgumentParser takes `-1` for an option and says "Missing
/// value", which hides that the value is what is wrong.
enum SeedArgument {
    /// The seed `text` names; a `ValidationError` that says what a seed must
    /// be (ArgumentParser prefixes it with the option and the value) otherwise.
    static func parse(_ text: String) throws -> UInt64 {
        let range = "a whole number from 0 to \(ScenarioParser.maxSeed) (2^63 − 1), as a scenario's `seed` is"
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ValidationError("a seed is \(range)")
        }
        guard !text.hasPrefix("-") else { throw ValidationError("a seed is never negative: it is \(range)") }
        guard let seed = UInt64(text), seed <= ScenarioParser.maxSeed else {
            throw ValidationError("\(text) is too large: a seed is \(range)")
        }
        return seed
    }
}
