import Foundation

extension SignedDataVerifier {
    /// The SHA-256 fingerprint of Apple Root CA - G3, as Apple publishes it.
    public static let appleRootCAG3Fingerprint =
        "63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79"

    /// Apple Root CA - G3 (DER), the root of the App Store's signing chains and
    /// the default trusted root; bundled as a resource (AppleRootCA-G3.cer,
    /// from Apple's certificate authority page).
    ///
    /// - Throws: A ``ConfigurationError`` when the resource cannot be read.
    public static func appleRootCAG3() throws(ConfigurationError) -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "AppleRootCA-G3", withExtension: "cer") else {
            throw ConfigurationError("the bundled Apple Root CA - G3 (AppleRootCA-G3.cer) is missing from the StorekeeperVerification resources")
        }
        do {
            return Array(try Data(contentsOf: url))
        } catch {
            throw ConfigurationError("the bundled Apple Root CA - G3 at \(url.path) cannot be read: \(error)")
        }
    }
}
