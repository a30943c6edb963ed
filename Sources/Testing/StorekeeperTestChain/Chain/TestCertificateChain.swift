import Crypto
import Foundation
public import SwiftASN1
public import X509

/// A certificate chain made for tests, shaped as the App Store's: a root, an
/// intermediate and a leaf, P-256 keys and ECDSA with SHA-256, and the leaf
/// signs App Store payloads (``SignedDataSigner``).
///
/// Apple's verifiers (the App Store Server Library, in any language) accept
/// what it signs once given ``rootDER`` as their trusted root: the chain has
/// what they look for, Apple's marker extensions (the leaf's
/// ``leafMarkerOID``, the intermediate's ``intermediateMarkerOID``), and what
/// OpenSSL's strict checks need (subject and authority key identifiers, a
/// critical basic-constraints extension, key usages: certificate signing on
/// the two authorities, digital signature on the leaf).
///
/// Its validity is fixed by ``Options`` (not the clock), so a payload signed
/// at a given `signedDate` verifies the same way on every run. The keys are
/// random unless ``Options/seed`` is set; the signatures are ECDSA's, random
/// in any case.
///
/// ```swift
/// let chain = try TestCertificateChain()
/// let verifierRoots = [Data(chain.rootDER)]               // the server's trusted roots, in its tests
/// let jws = try SignedDataSigner(chain: chain).sign(payload.json)
/// ```
public struct TestCertificateChain: Sendable {
    /// The extension Apple puts on the App Store's signing certificate (the
    /// leaf): `1.2.840.113635.100.6.11.1`.
    public static let leafMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    /// The extension Apple puts on its Worldwide Developer Relations
    /// certificate authority (the intermediate): `1.2.840.113635.100.6.2.1`.
    public static let intermediateMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    /// The self-signed root: what a verifier trusts.
    public let root: Certificate
    /// The certificate authority the root signed, which signs the leaf.
    public let intermediate: Certificate
    /// The certificate whose key signs payloads.
    public let leaf: Certificate
    /// What the chain was made with.
    public let options: Options
    /// The root's DER: give it to a verifier as its trusted root.
    public let rootDER: [UInt8]
    /// The intermediate's DER.
    public let intermediateDER: [UInt8]
    /// The leaf's DER.
    public let leafDER: [UInt8]
    /// The leaf's private key.
    let leafKey: P256.Signing.PrivateKey

    /// Makes a chain.
    ///
    /// - Throws: ``TestChainError`` when a validity period ends before it
    ///   starts, or a certificate cannot be made.
    public init(options: Options = Options()) throws(TestChainError) {
        try options.checkValidity()
        var keys = SigningKeys(seed: options.seed)
        let rootKey = try keys.next()
        let intermediateKey = try keys.next()
        let leafKey = try keys.next()
        do {
            let rootName = try DistinguishedName {
                CountryName("US")
                OrganizationName(options.organization)
                CommonName("\(options.organization) Test Root CA")
            }
            let intermediateName = try DistinguishedName {
                CountryName("US")
                OrganizationName(options.organization)
                OrganizationalUnitName("Test Worldwide Developer Relations")
                CommonName("\(options.organization) Test Intermediate CA")
            }
            let leafName = try DistinguishedName {
                CountryName("US")
                OrganizationName(options.organization)
                CommonName("\(options.organization) Test App Store Signing")
            }
            let rootPublic = Certificate.PublicKey(rootKey.publicKey)
            let intermediatePublic = Certificate.PublicKey(intermediateKey.publicKey)
            let leafPublic = Certificate.PublicKey(leafKey.publicKey)
            root = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(1), publicKey: rootPublic,
                notValidBefore: options.notValidBefore, notValidAfter: options.notValidAfter,
                issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: Self.authorityExtensions(subject: rootPublic, issuer: nil, marker: nil),
                issuerPrivateKey: Certificate.PrivateKey(rootKey))
            intermediate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(2), publicKey: intermediatePublic,
                notValidBefore: options.notValidBefore, notValidAfter: options.notValidAfter,
                issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: Self.authorityExtensions(subject: intermediatePublic, issuer: rootPublic,
                                                     marker: options.intermediateMarker ? Self.intermediateMarkerOID : nil),
                issuerPrivateKey: Certificate.PrivateKey(rootKey))
            leaf = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(3), publicKey: leafPublic,
                notValidBefore: options.notValidBefore, notValidAfter: options.leafNotValidAfter ?? options.notValidAfter,
                issuer: intermediateName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: Self.leafExtensions(subject: leafPublic, issuer: intermediatePublic,
                                                marker: options.leafMarker ? Self.leafMarkerOID : nil),
                issuerPrivateKey: Certificate.PrivateKey(intermediateKey))
            rootDER = try Self.der(root)
            intermediateDER = try Self.der(intermediate)
            leafDER = try Self.der(leaf)
        } catch {
            throw TestChainError("could not make the test certificate chain: \(error)")
        }
        self.leafKey = leafKey
        self.options = options
    }

    /// The chain in another variant, with this chain's options otherwise:
    /// see ``Variant``.
    public func variant(_ variant: Variant) throws(TestChainError) -> TestCertificateChain {
        try TestCertificateChain(options: options.applying(variant))
    }

    // MARK: Exports

    /// The root as PEM (`-----BEGIN CERTIFICATE-----`, RFC 7468), for verifiers that read files.
    public var rootPEM: String { Self.pem(rootDER) }

    /// A certificate's DER as PEM: base64 in lines of 64 characters between the markers.
    public static func pem(_ der: [UInt8]) -> String {
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
    }

    /// The JWS header's `x5c`: the leaf, the intermediate and the root, each
    /// as standard base64 of its DER (RFC 7515 section 4.1.6), in that order.
    public var x5c: [String] {
        [leafDER, intermediateDER, rootDER].map { Data($0).base64EncodedString() }
    }

    // MARK: Inside

    private static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// A certificate authority's extensions: critical CA basic constraints,
    /// certificate and CRL signing, key identifiers, Apple's marker if any.
    private static func authorityExtensions(subject: Certificate.PublicKey, issuer: Certificate.PublicKey?,
                                            marker: ASN1ObjectIdentifier?) throws -> Certificate.Extensions {
        var extensions: [Certificate.Extension] = [
            try Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true),
            try Certificate.Extension(KeyUsage(keyCertSign: true, cRLSign: true), critical: true),
            try Certificate.Extension(SubjectKeyIdentifier(hash: subject), critical: false),
        ]
        // A self-signed root needs no authority key identifier (RFC 5280 section 4.2.1.1).
        if let issuer { extensions.append(try authorityKeyIdentifier(issuer)) }
        if let marker { extensions.append(markerExtension(marker)) }
        return try Certificate.Extensions(extensions)
    }

    /// The leaf's extensions: critical end-entity basic constraints, digital signature only, key identifiers, Apple's marker if any.
    private static func leafExtensions(subject: Certificate.PublicKey, issuer: Certificate.PublicKey,
                                       marker: ASN1ObjectIdentifier?) throws -> Certificate.Extensions {
        var extensions: [Certificate.Extension] = [
            try Certificate.Extension(BasicConstraints.notCertificateAuthority, critical: true),
            try Certificate.Extension(KeyUsage(digitalSignature: true), critical: true),
            try Certificate.Extension(SubjectKeyIdentifier(hash: subject), critical: false),
            try authorityKeyIdentifier(issuer),
        ]
        if let marker { extensions.append(markerExtension(marker)) }
        return try Certificate.Extensions(extensions)
    }

    private static func authorityKeyIdentifier(_ issuer: Certificate.PublicKey) throws -> Certificate.Extension {
        try Certificate.Extension(AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: issuer).keyIdentifier), critical: false)
    }

    /// Apple's marker extensions hold an ASN.1 NULL; verifiers look only for the OID.
    private static func markerExtension(_ oid: ASN1ObjectIdentifier) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
    }
}
