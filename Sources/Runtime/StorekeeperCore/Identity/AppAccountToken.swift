public import Foundation

/// The App Store's name for a user of the app: StoreKit 2's `appAccountToken`,
/// a UUID, derived from the queue's user (`Payment.applicationUsername`), which is
/// free text.
///
/// The app and its server derive it the same way, so neither has to store
/// or send it: a name-based UUID, version 5 (RFC 9562 section 5.5: SHA-1), in
/// the namespace ``namespace``, of the user id's UTF-8 bytes. Python's
/// `uuid.uuid5(uuid.UUID("16407aeb-f43d-4113-b0db-9abae296beca"), user)` gives
/// the same value.
///
/// It is an identifier, not a secret: anyone who knows a user id can derive
/// its token. SHA-1 is used because version 5 is defined with it, not for
/// any security it no longer has.
public enum AppAccountToken {
    /// The namespace of Storekeeper's tokens: `16407aeb-f43d-4113-b0db-9abae296beca`.
    package static let namespace = UUID(uuid: (0x16, 0x40, 0x7a, 0xeb, 0xf4, 0x3d, 0x41, 0x13,
                                              0xb0, 0xdb, 0x9a, 0xba, 0xe2, 0x96, 0xbe, 0xca))

    /// The token of a user: the version 5 UUID of `user`'s UTF-8 bytes in ``namespace``.
    public static func derive(fromUser user: String) -> UUID {
        nameBased(name: Array(user.utf8), namespace: namespace)
    }

    /// A version 5 UUID (RFC 9562 section 5.5): the first 16 bytes of the
    /// SHA-1 of the namespace's bytes then the name's, with the version
    /// (`0101`) and the variant (`10`) bits set.
    static func nameBased(name: [UInt8], namespace: UUID) -> UUID {
        let space = namespace.uuid
        var input: [UInt8] = [space.0, space.1, space.2, space.3, space.4, space.5, space.6, space.7,
                              space.8, space.9, space.10, space.11, space.12, space.13, space.14, space.15]
        input.append(contentsOf: name)
        var b = SHA1.digest(of: input)
        b[6] = (b[6] & 0x0F) | 0x50
        b[8] = (b[8] & 0x3F) | 0x80
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
