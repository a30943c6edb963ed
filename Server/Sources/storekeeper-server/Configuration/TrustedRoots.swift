import Foundation
import StorekeeperVerification

/// The root certificates a verifier trusts: files given with `--root` (DER, or PEM with one or
/// more certificates), or Apple Root CA - G3, bundled, when none is given.
enum TrustedRoots {
    static func load(_ paths: [String], origin: String) throws(UsageError) -> [[UInt8]] {
        guard !paths.isEmpty else {
            do {
                return [try SignedDataVerifier.appleRootCAG3()]
            } catch {
                throw UsageError("the bundled Apple Root CA - G3 cannot be read: \(error.message)")
            }
        }
        var roots: [[UInt8]] = []
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError("\(origin) \(path) cannot be read; name a root certificate file (DER or PEM)")
            }
            let certificates = pemCertificates(in: data) ?? [Array(data)]
            guard !certificates.isEmpty else { throw UsageError("\(origin) \(path) holds no certificate between -----BEGIN CERTIFICATE----- lines") }
            roots += certificates
        }
        return roots
    }

    /// The certificates of a PEM file; nil when the file is not PEM (then it is read as DER).
    private static func pemCertificates(in data: Data) -> [[UInt8]]? {
        guard let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN ") else { return nil }
        var certificates: [[UInt8]] = []
        var body: String?
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line == "-----BEGIN CERTIFICATE-----" {
                body = ""
            } else if line == "-----END CERTIFICATE-----", let collected = body {
                // A damaged body is kept as no bytes: the verifier refuses it, naming the root.
                certificates.append(Data(base64Encoded: collected).map(Array.init) ?? [])
                body = nil
            } else if body != nil {
                body? += line
            }
        }
        return certificates
    }
}
