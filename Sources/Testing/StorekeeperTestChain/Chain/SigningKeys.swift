import Crypto
import StorekeeperCore

/// The P-256 keys of a test chain: from the system's randomness, or from a
/// seed so that the same seed makes the same keys (and so the same root key)
/// on every run.
struct SigningKeys {
    private var random: SplitMix64?

    /// Keys from `seed`, or random ones when it is nil.
    init(seed: UInt64?) {
        random = seed.map { SplitMix64(seed: $0) }
    }

    /// The next key.
    mutating func next() throws(TestChainError) -> P256.Signing.PrivateKey {
        guard var generator = random else { return P256.Signing.PrivateKey() }
        defer { random = generator }
        // A scalar of 32 seeded bytes; one at or above the curve's order (odds about 2^-32) is skipped.
        for _ in 0..<16 {
            var scalar: [UInt8] = []
            scalar.reserveCapacity(32)
            for _ in 0..<4 { withUnsafeBytes(of: generator.next().bigEndian) { scalar.append(contentsOf: $0) } }
            if let key = try? P256.Signing.PrivateKey(rawRepresentation: scalar) { return key }
        }
        throw TestChainError("no valid P-256 key came from the seed in 16 tries; use another seed")
    }
}
