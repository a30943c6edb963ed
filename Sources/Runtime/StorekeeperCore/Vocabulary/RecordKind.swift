/// What a user-defaults or iCloud record holds.
public enum RecordKind: String, CaseIterable, Hashable, Sendable {
    /// A boolean or a number.
    case flag
    /// A copy of the transaction's receipt, which resists tampering.
    case receipt
}
