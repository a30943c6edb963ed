/// An immutable value stored out of line. Products keep their rarely present
/// parts (a subscription, content) in boxes so that the common product stays
/// small: an absent box costs 8 bytes instead of the part's full size.
final class Box<Value: Sendable & Hashable>: Sendable, Hashable {
    let value: Value

    init(_ value: Value) { self.value = value }

    static func == (lhs: Box, rhs: Box) -> Bool { lhs === rhs || lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
