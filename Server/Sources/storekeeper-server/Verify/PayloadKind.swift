import ArgumentParser
import StorekeeperContract
import StorekeeperJSON

/// What a signed payload is: each is verified by its own method of `SignedDataVerifier`.
enum PayloadKind: String, CaseIterable, ExpressibleByArgument {
    case transaction
    case renewalInfo = "renewal-info"
    case notification

    /// The kind the payload's members show, read without verifying anything: a notification has
    /// `notificationType`, a transaction `transactionId`, renewal info `autoRenewStatus` or
    /// `autoRenewProductId` without a `transactionId`. Nil when the payload cannot be read as JSON
    /// (the verifier then refuses it, saying why) or shows none of them.
    static func detect(in jws: String) -> Detection {
        guard let bytes = JWSPayload.peek(jws),
              case .object(let members)? = try? JSONParser(maxDepth: 16).parse(bytes)
        else { return .unreadable }
        let keys = Set(members.map(\.key))
        if keys.contains("notificationType") { return .kind(.notification) }
        if keys.contains("transactionId") { return .kind(.transaction) }
        if keys.contains("autoRenewStatus") || keys.contains("autoRenewProductId") { return .kind(.renewalInfo) }
        return .unknown
    }

    enum Detection: Equatable {
        case kind(PayloadKind)
        /// Not a JWS whose payload is a JSON object: verified as a transaction, so that the
        /// verifier's refusal says what is wrong.
        case unreadable
        /// A JSON object with none of the members that tell the kinds apart.
        case unknown
    }
}
