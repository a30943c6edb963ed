import Foundation

/// Base64 with the URL and filename safe alphabet and no padding (RFC 4648
/// section 5), as JWS writes each of its three parts (RFC 7515 section 2).
public enum Base64URL {
    /// `bytes` encoded. Table-driven rather than Foundation's base64 then string replacing: random lives sign
    /// thousands of payloads whose headers carry three certificates, and replacing over kilobytes of text was
    /// most of their time.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        let count = (input.count * 4 + 2) / 3
        return input.withUnsafeBufferPointer { input in
            alphabet.withUnsafeBufferPointer { alphabet in
                String(unsafeUninitializedCapacity: count) { output in
                    var index = 0
                    var written = 0
                    while index + 3 <= input.count {
                        let triple = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                        output[written] = alphabet[Int(triple >> 18 & 63)]
                        output[written + 1] = alphabet[Int(triple >> 12 & 63)]
                        output[written + 2] = alphabet[Int(triple >> 6 & 63)]
                        output[written + 3] = alphabet[Int(triple & 63)]
                        index += 3
                        written += 4
                    }
                    let rest = input.count - index
                    if rest > 0 {
                        let first = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
                        output[written] = alphabet[Int(first >> 18 & 63)]
                        output[written + 1] = alphabet[Int(first >> 12 & 63)]
                        written += 2
                        if rest == 2 {
                            output[written] = alphabet[Int(first >> 6 & 63)]
                            written += 1
                        }
                    }
                    return written
                }
            }
        }
    }

    /// RFC 4648's URL and filename safe alphabet.
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The bytes `text` encodes; nil when it is not base64url without padding.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        switch standard.count % 4 {
        case 1: return nil
        case 2: standard += "=="
        case 3: standard += "="
        default: break
        }
        return Data(base64Encoded: standard).map(Array.init)
    }
}
