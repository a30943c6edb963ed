public import Foundation
import StorekeeperCore

extension TestCertificateChain {
    /// How a ``TestCertificateChain`` is made: its validity, its marker
    /// extensions, its keys. The defaults make a chain Apple's verifiers
    /// accept for any `signedDate` from 2020 to 2049.
    public struct Options: Sendable, Hashable {
        /// When every certificate becomes valid. Default 2020-01-01T00:00:00Z.
        public var notValidBefore: Date
        /// When the root and the intermediate (and the leaf, unless
        /// ``leafNotValidAfter`` says otherwise) stop being valid. Default
        /// 2050-01-01T00:00:00Z.
        public var notValidAfter: Date
        /// When the leaf stops being valid, if earlier than the others (nil: ``notValidAfter``).
        public var leafNotValidAfter: Date?
        /// Whether the leaf carries Apple's ``TestCertificateChain/leafMarkerOID`` (default true).
        public var leafMarker: Bool
        /// Whether the intermediate carries Apple's ``TestCertificateChain/intermediateMarkerOID`` (default true).
        public var intermediateMarker: Bool
        /// Keys from this seed, the same on every run (nil, the default: random keys).
        public var seed: UInt64?
        /// The organization in the certificates' names (default "Storekeeper").
        public var organization: String

        /// 2020-01-01T00:00:00Z.
        public static let defaultNotValidBefore = Date(timeIntervalSince1970: 1_577_836_800)
        /// 2050-01-01T00:00:00Z.
        public static let defaultNotValidAfter = Date(timeIntervalSince1970: 2_524_608_000)

        /// Options for a chain; every parameter has the default described at its property.
        public init(notValidBefore: Date = Options.defaultNotValidBefore, notValidAfter: Date = Options.defaultNotValidAfter,
                    leafNotValidAfter: Date? = nil, leafMarker: Bool = true, intermediateMarker: Bool = true,
                    seed: UInt64? = nil, organization: String = "Storekeeper") {
            self.notValidBefore = notValidBefore
            self.notValidAfter = notValidAfter
            self.leafNotValidAfter = leafNotValidAfter
            self.leafMarker = leafMarker
            self.intermediateMarker = intermediateMarker
            self.seed = seed
            self.organization = organization
        }

        /// These options changed as `variant` says.
        public func applying(_ variant: Variant) -> Options {
            var options = self
            switch variant {
            case .valid:
                break
            case .leafWithoutMarker:
                options.leafMarker = false
            case .intermediateWithoutMarker:
                options.intermediateMarker = false
            case .expiredLeaf:
                options.leafNotValidAfter = notValidBefore.addingTimeInterval(Variant.expiredLeafLifetime)
            case .otherRoot:
                // Other keys under the same names: a verifier must check signatures, not names.
                options.seed = seed.map { SplitMix64.mix($0 ^ 0x5EED_0F_07_4E52_0075) }
            }
            return options
        }

        func checkValidity() throws(TestChainError) {
            guard notValidBefore < notValidAfter else {
                throw TestChainError("notValidBefore (\(notValidBefore)) must be before notValidAfter (\(notValidAfter))")
            }
            if let leafNotValidAfter, leafNotValidAfter <= notValidBefore {
                throw TestChainError("leafNotValidAfter (\(leafNotValidAfter)) must be after notValidBefore (\(notValidBefore))")
            }
            guard !organization.isEmpty else {
                throw TestChainError("organization must not be empty: strict verifiers refuse certificates with empty names")
            }
        }
    }

    /// The chains a verifier must refuse, beside the valid one, for tests
    /// that show it can fail (``Options/applying(_:)``).
    public enum Variant: String, Sendable, Hashable, CaseIterable {
        /// The chain as the App Store's is.
        case valid
        /// The leaf lacks Apple's marker extension.
        case leafWithoutMarker
        /// The intermediate lacks Apple's marker extension.
        case intermediateWithoutMarker
        /// The leaf's validity ends one day after ``Options/notValidBefore``
        /// (2020-01-02 with the defaults), before any payload's `signedDate`.
        case expiredLeaf
        /// A chain under another root with the same names and other keys (with
        /// a seed: another seed derived from it; without one: random keys
        /// again), which a verifier trusting the first chain's root refuses.
        case otherRoot

        /// How long the ``expiredLeaf`` variant's leaf is valid: one day.
        public static let expiredLeafLifetime: TimeInterval = 86_400
    }
}
